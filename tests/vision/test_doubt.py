"""vision.doubt: a tile is doubtful when any reason holds it, and is told the first named reason that does."""

import numpy as np
import pytest

from vision.doubt import Reason, judge, reason
from vision.types import CROWDED, INK_COLOUR, PARTIAL


def test_the_first_named_reason_in_order_is_the_one_told():
    doubtful, why = judge(4, [
        reason(CROWDED, [False, True, False, False]),
        reason(PARTIAL, [False, True, True, False]),
        reason(INK_COLOUR, [True, True, True, False]),
    ])
    assert doubtful == [True, True, True, False]
    assert why == [INK_COLOUR, CROWDED, PARTIAL, None]


def test_an_unnamed_reason_makes_a_tile_doubtful_without_a_reason_and_hides_none():
    doubtful, why = judge(3, [
        reason(None, [True, True, False]),
        reason(PARTIAL, [False, True, False]),
    ])
    assert doubtful == [True, True, False]
    assert why == [None, PARTIAL, None]  # an unnamed doubt listed first does not take a named one's place


def test_no_reasons_no_doubt():
    assert judge(2, []) == ([False, False], [None, None])
    assert judge(0, [reason(PARTIAL, [])]) == ([], [])


def test_masks_may_be_numpy_arrays_and_the_answer_is_plain_python():
    doubtful, why = judge(2, [reason(CROWDED, np.array([0, 1]))])
    assert doubtful == [False, True] and all(type(d) is bool for d in doubtful)
    assert why == [None, CROWDED]


def test_an_unknown_reason_code_is_refused():
    with pytest.raises(ValueError, match="unknown doubt reason 'glare'"):
        Reason("glare", np.zeros(1, dtype=bool))


def test_a_mask_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="doubt partial: a mask of 2 tiles for 3"):
        judge(3, [reason(PARTIAL, [True, False])])
