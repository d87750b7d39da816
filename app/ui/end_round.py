"""Page 3, "End of round": the game and its players; who went out (or the pool ran out); what each
other player has left (a rack photo, read and corrected, or typed tiles / cards); the round's
scores; the score sheet across rounds (table, running-total chart, CSV); edit or delete a round."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import streamlit as st

from app.store import GAME_KINDS, Game, Round, StoreError, new_token
from app.i18n import error_text, ltr, reason_text
from app.ui.common import Ctx, parse_rack_text
from app.ui.edits import edits_to_json
from app.ui.fix_photo import clear_photo, photo_input
from engine.scoring import exhausted_winners, rack_value, score_round
from engine.supply import supply_reasons
from engine.tiles import NotationError, format_tiles

EXHAUSTED = "__exhausted__"
NEW_GAME = 0
CARD_TARGET = 100


@dataclass
class Draft:
    """A round as entered so far: scores (None until complete), values, hands, problems."""

    winner: str | None
    exhausted: bool
    hands: dict[str, str] = field(default_factory=dict)
    values: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] | None = None
    winners: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    readings: list[dict[str, Any]] = field(default_factory=list)


def score_tiles(ctx: Ctx, players: tuple[str, ...], winner: str | None, racks: dict[str, str]) -> Draft:
    """Score a Rummikub round from typed racks (``winner`` None: the pool is exhausted)."""
    exhausted = winner is None
    draft = Draft(winner=winner, exhausted=exhausted)
    parsed = {}
    for name in players:
        if name == winner:
            continue
        text = racks.get(name, "")
        try:
            tiles = parse_rack_text(text, twist=ctx.rules.twist)
        except NotationError as exc:
            draft.errors.append(ctx.t("player_typo", player=name, error=error_text(exc, ctx.lang)))
            continue
        parsed[name] = tiles
        draft.hands[name] = format_tiles(tiles)
        draft.values[name] = rack_value(tiles, ctx.rules)
    if draft.errors:
        return draft
    problems = supply_reasons(*parsed.values())
    if problems:
        draft.errors.append(ctx.t("over_supply_racks", problems="; ".join(reason_text(p, ctx.lang) for p in problems)))
        return draft
    try:
        if exhausted:
            draft.winners = exhausted_winners(parsed, ctx.rules)
            draft.scores = score_round(parsed, None, ctx.rules, exhausted=True)
        else:
            draft.winners = [winner]  # type: ignore[list-item]
            draft.scores = score_round(parsed, winner, ctx.rules)
    except ValueError as exc:
        draft.errors.append(error_text(exc, ctx.lang))
    return draft


def score_cards(ctx: Ctx, game: Game, winner: str, hands: dict[str, str], rummy: bool = False) -> Draft:
    """Score a card-rummy round from typed hands."""
    from engine.cards import format_cards, hand_points, parse_cards, round_scores, rules_for

    rules = rules_for(game.kind, bool(game.options.get("ace_high", False)), entry=_entry(game))
    draft = Draft(winner=winner, exhausted=False)
    parsed = {}
    for name in game.players:
        if name == winner:
            continue
        try:
            cards = parse_cards(hands.get(name, ""))
        except NotationError as exc:
            draft.errors.append(ctx.t("player_typo", player=name, error=error_text(exc, ctx.lang)))
            continue
        parsed[name] = cards
        draft.hands[name] = format_cards(cards)
        draft.values[name] = hand_points(cards, rules)
    if draft.errors:
        return draft
    try:
        draft.scores = round_scores(parsed, winner, rules, rummy=rummy)
        draft.winners = [winner]
    except ValueError as exc:
        draft.errors.append(error_text(exc, ctx.lang))
    return draft


# --------------------------------------------------------------------------- the page


def render(ctx: Ctx) -> None:
    st.header(ctx.t("round_title"))
    game = _pick_game(ctx)
    if game is None:
        return
    st.caption(ctx.t("game_caption", kind=ctx.t(f"kind_{game.kind}"), players=", ".join(game.players)))
    _flash()
    left, right = st.columns([1, 1], gap="large")
    with left, st.container(border=True):
        _round_form(ctx, game)
    with right:
        score_sheet(ctx, game)
        _edit_rounds(ctx, game)


def _flash() -> None:
    message = st.session_state.pop("round_flash", None)
    if message:
        kind, text = message
        getattr(st, kind)(text)


def _pick_game(ctx: Ctx) -> Game | None:
    games = ctx.store.games()
    ids = [g.id for g in games] + [NEW_GAME]
    by_id = {g.id: g for g in games}
    if st.session_state.get("game_pick") not in ids:
        st.session_state["game_pick"] = ids[0]
    pick = st.selectbox(
        ctx.t("game"), ids, key="game_pick",
        format_func=lambda i: ctx.t("new_game") if i == NEW_GAME else f"{by_id[i].name} ({ctx.t('kind_' + by_id[i].kind)})",
    )
    if pick == NEW_GAME:
        _new_game_form(ctx)
        return None
    return by_id[pick]


def _new_game_form(ctx: Ctx) -> None:
    error = st.session_state.pop("new_game_error", None)
    if error:
        st.error(error)
    with st.form("new_game", clear_on_submit=False, border=True):
        st.text_input(ctx.t("game_name"), key="new_game_name", placeholder=ctx.t("game_name_example"))
        st.radio(
            ctx.t("game_kind"), list(GAME_KINDS), format_func=lambda k: ctx.t(f"kind_{k}"),
            key="new_game_kind", horizontal=True,
        )
        st.text_area(ctx.t("players"), key="new_game_players", placeholder="Dana\nOmer\nLior", height=110)
        st.number_input(ctx.t("pot_entry"), min_value=1, max_value=1000, value=1, step=1, key="new_game_entry",
                        help=ctx.t("pot_entry_help"))
        st.form_submit_button(ctx.t("create_game"), on_click=_create_game, args=(ctx,), type="primary")


def _create_game(ctx: Ctx) -> None:
    ss = st.session_state
    name = ss.get("new_game_name", "")
    players = [p for line in ss.get("new_game_players", "").splitlines() for p in line.split(",")]
    try:
        kind = ss.get("new_game_kind", "rummikub")
        options = {"entry": int(ss.get("new_game_entry") or 1)} if kind == "closed" else {}
        game = ctx.store.create_game(name, kind, players, options)
    except StoreError as exc:
        ss["new_game_error"] = str(exc)
        return
    ss["game_pick"] = game.id
    for k in ("new_game_name", "new_game_players"):
        ss.pop(k, None)


def _hand_key(game: Game, i: int) -> str:
    return f"g{game.id}_hand_{i}"


def _photo_key(game: Game, i: int, n: int) -> str:
    """Player ``i``'s rack photo in round ``n``: a fresh uploader each round, so a saved round's
    photo is not read again into the next one."""
    return f"g{game.id}_round{n}_rack_{i}"


def _round_form(ctx: Ctx, game: Game) -> None:
    token_key = f"round_token_{game.id}"
    if token_key not in st.session_state:
        st.session_state[token_key] = new_token()
    token = st.session_state[token_key]
    n = len(ctx.store.rounds(game.id)) + 1
    st.subheader(ctx.t("round_n", n=n))

    options: list[str] = list(game.players) + ([] if game.is_cards else [EXHAUSTED])
    choice = st.selectbox(
        ctx.t("who_went_out"), options, key=f"g{game.id}_winner",
        format_func=lambda p: ctx.t("pool_exhausted") if p == EXHAUSTED else p,
    )
    winner = None if choice == EXHAUSTED else choice
    rummy = False
    if game.kind == "classic":
        rummy = st.checkbox(ctx.t("rummy_double"), key=f"g{game.id}_rummy")

    texts: dict[str, str] = {}
    readings: list[dict[str, Any]] = []
    missing: list[str] = []
    for i, name in enumerate(game.players):
        if name == winner:
            continue
        st.markdown(f"**{name}**")
        if game.is_cards:
            texts[name] = st.text_input(
                ctx.t("cards_left", player=name), key=_hand_key(game, i), placeholder="KH QH 7S *",
                label_visibility="collapsed",
            )
            continue
        source = st.radio(
            ctx.t("rack_source"), ["type", "photo"], format_func=lambda s: ctx.t(f"source_{s}"),
            horizontal=True, key=f"g{game.id}_src_{i}", label_visibility="collapsed",
        )
        if source == "photo":
            state = photo_input(ctx, _photo_key(game, i, n), rack=True)
            if state is None or state.reading is None:
                missing.append(name)
                continue
            texts[name] = " ".join(t.code for t in state.reading.tiles)
            readings.append({
                "id": state.reading_id, "player": name, "photo": state.result.name if state.result else "",
                "reading": state.reading.to_json(), "edits": edits_to_json(state.edits),
            })
            st.caption(ctx.t("rack_read_as", tiles=ltr(texts[name], ctx.lang) or "-"))
        else:
            texts[name] = st.text_input(
                ctx.t("tiles_left", player=name), key=_hand_key(game, i), placeholder="K5 R7 J",
                label_visibility="collapsed",
            )
    if missing:
        st.info(ctx.t("waiting_for_photos", players=", ".join(missing)))
        return
    if game.is_cards:
        draft = score_cards(ctx, game, winner or "", texts, rummy)
    else:
        draft = score_tiles(ctx, game.players, winner, texts)
    draft.readings = readings
    for e in draft.errors:
        st.error(e)
    empty = [p for p, text in texts.items() if not text.strip()]
    if empty:  # everyone who did not go out still holds tiles (or cards)
        st.info(ctx.t("waiting_for_racks", players=", ".join(empty)))
        draft.scores = None
    if draft.scores is not None:
        rows = [
            {
                ctx.t("player"): p,
                ctx.t("left"): draft.hands.get(p, ""),
                ctx.t("value"): draft.values.get(p, 0),
                ctx.t("score"): draft.scores.get(p, 0),
            }
            for p in game.players
        ]
        st.dataframe(pd.DataFrame(rows), hide_index=True)
        if draft.exhausted:
            st.caption(ctx.t("exhausted_winners", players=", ".join(draft.winners)))
    st.button(
        ctx.t("save_round"), key=f"g{game.id}_save", type="primary", disabled=draft.scores is None,
        on_click=_save_round, args=(ctx, game, token, draft),
    )


def _save_round(ctx: Ctx, game: Game, token: str, draft: Draft) -> None:
    ss = st.session_state
    if draft.scores is None:
        return
    try:
        saved, created = ctx.store.add_round(
            game.id, token, draft.scores, draft.hands, draft.winner, draft.exhausted,
            readings=[dict(r, kind="rack") for r in draft.readings],
        )
    except StoreError as exc:
        ss["round_flash"] = ("error", str(exc))
        return
    ss["round_flash"] = ("success", ctx.t("round_saved" if created else "round_already_saved", n=saved.number))
    ss[f"round_token_{game.id}"] = new_token()
    for i in range(len(game.players)):
        ss[_hand_key(game, i)] = ""
        clear_photo(_photo_key(game, i, saved.number))


# --------------------------------------------------------------------------- the score sheet


def sheet_frame(ctx: Ctx, game: Game, rounds: list[Round]) -> pd.DataFrame:
    data = {p: [r.scores[p] for r in rounds] for p in game.players}
    frame = pd.DataFrame(data, index=[ctx.t("round_n", n=r.number) for r in rounds])
    frame.loc[ctx.t("total")] = [sum(r.scores[p] for r in rounds) for p in game.players]
    return frame


def score_sheet(ctx: Ctx, game: Game) -> None:
    st.subheader(ctx.t("sheet_title"))
    rounds = ctx.store.rounds(game.id)
    if not rounds:
        st.info(ctx.t("no_rounds"))
        return
    st.dataframe(sheet_frame(ctx, game, rounds))
    running = pd.DataFrame(
        [{p: sum(r.scores[p] for r in rounds[: k + 1]) for p in game.players} for k in range(len(rounds))],
        index=pd.Index([r.number for r in rounds], name=ctx.t("round")),
    )
    closed = game.kind == "closed"
    st.line_chart(running, x_label=ctx.t("round"), y_label=ctx.t("coins" if closed else "total"))
    totals = {p: int(running[p].iloc[-1]) for p in game.players}
    if closed:
        _coin_balance(ctx, game, rounds)
    elif game.is_cards:
        from engine.cards import rules_for, winner_of_game

        target = int(game.options.get("target", CARD_TARGET))
        won = winner_of_game(totals, target, rules_for(game.kind))
        if won:
            st.success(ctx.t("game_won", player=won))
    else:
        leader = max(totals, key=totals.get)
        st.caption(ctx.t("leader", player=leader, total=totals[leader]))
    st.download_button(
        ctx.t("export_csv"), ctx.store.export_csv(game.id), file_name=f"rummi-{_slug(game.name)}.csv",
        mime="text/csv", key=f"g{game.id}_csv", on_click="ignore",
    )


def _entry(game: Game) -> int:
    """The closed game's pot entry per player and round (coins; 1 unless the game says)."""
    try:
        return max(1, int(game.options.get("entry", 1)))
    except (TypeError, ValueError):
        return 1


def _coin_balance(ctx: Ctx, game: Game, rounds: list[Round]) -> None:
    """The closed game's pot: each player's coins won or lost over the rounds (engine.cards)."""
    from engine.cards.scoring import coin_balances

    balance = coin_balances([r.scores for r in rounds])[-1]
    st.markdown(f"**{ctx.t('coin_balance')}**")
    st.markdown("  \n".join(
        f"🪙 {p}: **{balance.get(p, 0):+d}**" for p in sorted(game.players, key=lambda p: -balance.get(p, 0))
    ))
    st.caption(ctx.t("pot_caption", entry=_entry(game)))


def _slug(name: str) -> str:
    out = "".join(c if c.isalnum() else "-" for c in name).strip("-")
    return out or "game"


def _edit_rounds(ctx: Ctx, game: Game) -> None:
    rounds = ctx.store.rounds(game.id)
    if not rounds:
        return
    with st.expander(ctx.t("edit_rounds")):
        by_id = {r.id: r for r in rounds}
        rid = st.selectbox(
            ctx.t("which_round"), [r.id for r in rounds], index=len(rounds) - 1,
            format_func=lambda i: ctx.t("round_n", n=by_id[i].number), key=f"g{game.id}_edit_pick",
        )
        r = by_id[rid]
        if any(r.hands.values()):
            st.caption("; ".join(f"{p}: {h}" for p, h in r.hands.items() if h))
        cols = st.columns(min(len(game.players), 4))
        for k, p in enumerate(game.players):
            cols[k % len(cols)].number_input(p, value=int(r.scores[p]), step=1, key=f"edit_{r.id}_{k}")
        c1, c2 = st.columns(2)
        c1.button(ctx.t("save_changes"), key=f"edit_save_{r.id}", on_click=_update_round, args=(ctx, game, r))
        confirm_key = f"confirm_delete_{r.id}"
        if not st.session_state.get(confirm_key):
            c2.button(ctx.t("delete_round"), key=f"delete_{r.id}", on_click=_ask_delete, args=(confirm_key,))
        else:
            st.warning(ctx.t("confirm_delete", n=r.number))
            d1, d2 = st.columns(2)
            d1.button(ctx.t("yes_delete"), key=f"delete_yes_{r.id}", type="primary", on_click=_delete_round, args=(ctx, r, confirm_key))
            d2.button(ctx.t("cancel"), key=f"delete_no_{r.id}", on_click=_cancel_delete, args=(confirm_key,))


def _update_round(ctx: Ctx, game: Game, r: Round) -> None:
    ss = st.session_state
    scores = {p: int(ss.get(f"edit_{r.id}_{k}", r.scores[p])) for k, p in enumerate(game.players)}
    try:
        ctx.store.update_round(r.id, scores)
    except StoreError as exc:
        ss["round_flash"] = ("error", str(exc))
        return
    ss["round_flash"] = ("success", ctx.t("round_updated", n=r.number))


def _ask_delete(confirm_key: str) -> None:
    st.session_state[confirm_key] = True


def _cancel_delete(confirm_key: str) -> None:
    st.session_state.pop(confirm_key, None)


def _delete_round(ctx: Ctx, r: Round, confirm_key: str) -> None:
    ss = st.session_state
    ss.pop(confirm_key, None)
    try:
        ctx.store.delete_round(r.id)
    except StoreError as exc:
        ss["round_flash"] = ("error", str(exc))
        return
    ss["round_flash"] = ("success", ctx.t("round_deleted", n=r.number))
