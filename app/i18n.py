"""The app's words in English and Hebrew (Hebrew pages are laid out right to left).

``tr(key, lang, **values)`` looks a string up and fills in ``{values}``; a key missing in a
language falls back to English, and an unknown key is shown as itself (never an error on the page).
The rules engine's reasons (why a meld is not valid, why an opening is short, a typo) come as
stable codes with parameters and are said here in either language (``reason_text``), the hint's
steps among them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["LANGUAGES", "RTL", "STRINGS", "tr"]

LANGUAGES: dict[str, str] = {"en": "English", "he": "עברית"}
RTL: frozenset[str] = frozenset({"he"})

# key: (English, Hebrew)
_PAIRS: dict[str, tuple[str, str]] = {
    # navigation and frame
    "navigation": ("Page", "עמוד"),
    "page_check": ("Check the table", "בדיקת השולחן"),
    "page_turn": ("My turn", "התור שלי"),
    "page_round": ("End of round", "סוף סיבוב"),
    "page_settings": ("Settings", "הגדרות"),
    "unexpected_error": (
        "Something went wrong ({error}). What you entered is kept; try again or change the input.",
        "משהו השתבש ({error}). מה שהזנת נשמר; נסו שוב או שנו את הקלט.",
    ),
    "typo": ("Typo in the tiles: {error}", "שגיאת הקלדה באבנים: {error}"),
    "tile_position": ("(tile {n} of the input)", "(אבן {n} בקלט)"),
    # tiles and melds
    "meld_n": ("Meld {n}", "סדרה {n}"),
    "meld_valid": ("{kind}, {value} points", "{kind}, {value} נקודות"),
    "meld_invalid": ("not valid", "לא תקינה"),
    "run": ("run", "רצף"),
    "group": ("group", "קבוצה"),
    "mirror": ("mirror set", "סדרת מראה"),
    "special_D": ("double joker", "ג'וקר כפול"),
    "special_M": ("mirror joker", "ג'וקר מראה"),
    "special_C": ("colour-change joker", "ג'וקר החלפת צבע"),
    "special_stands": ("{name} = {tiles}", "{name} = {tiles}"),
    "notation_help_twist": (
        "Rummikub Twist: JD double joker, JM mirror joker, JC colour-change joker.",
        "רמיקוב טוויסט: JD ג'וקר כפול, JM ג'וקר מראה, JC ג'וקר החלפת צבע.",
    ),
    "notation_help": (
        "Tiles: colour K (black), R (red), B (blue), O (orange) and a number 1-13, J for a joker. "
        "Melds are separated by | or one meld a line.",
        "אבנים: צבע K (שחור), R (אדום), B (כחול), O (כתום) ומספר 1-13, J לג'וקר. "
        "מפרידים בין סדרות ב-| או סדרה בכל שורה.",
    ),
    # photos
    "photo_source": ("Photo from", "תמונה מ"),
    "photo_upload": ("Photo file", "קובץ תמונה"),
    "photo_camera": ("Camera", "מצלמה"),
    "take_photo": ("Take a photo", "צלמו תמונה"),
    "upload_photo": ("Photo (JPEG, PNG, WebP, HEIC)", "תמונה (JPEG, PNG, WebP, HEIC)"),
    "upload_help": (
        "A photo from straight above, the whole table in the frame.",
        "צילום מלמעלה, כל השולחן בתמונה.",
    ),
    "reading_photo": ("Reading the tiles...", "קורא את האבנים..."),
    "bad_photo": ("This photo cannot be used: {error}", "אי אפשר להשתמש בתמונה הזאת: {error}"),
    "photo_too_big": ("the photo is too large to open", "התמונה גדולה מדי לפתיחה"),
    "no_model": (
        "Photos cannot be read on this machine: {error}. Type the tiles instead.",
        "אי אפשר לקרוא תמונות במחשב הזה: {error}. הקלידו את האבנים במקום.",
    ),
    "photo_caption": ("{name}: {n} tiles read", "{name}: נקראו {n} אבנים"),
    "no_tiles": (
        "No tiles found in this photo: take it again from closer, in good light, or type the tiles.",
        "לא נמצאו אבנים בתמונה: צלמו שוב מקרוב ובתאורה טובה, או הקלידו את האבנים.",
    ),
    "doubtful_tiles": ("Please check these tiles: {tiles}", "בדקו בבקשה את האבנים האלה: {tiles}"),
    "correct_tiles": ("Correct a tile", "תיקון אבן"),
    "which_tile": ("Tile (the ones to check first)", "אבן (אלה שכדאי לבדוק ראשונות)"),
    "corrected": ("corrected", "תוקנה"),
    "check_it": ("check", "לבדוק"),
    "right_code": ("It is", "היא בעצם"),
    "apply_correction": ("Change", "שינוי"),
    "corrections_made": ("{n} change(s) made by hand", "{n} שינויים ידניים"),
    "undo": ("Undo", "ביטול"),
    "redo": ("Redo", "שחזור"),
    "tap_help": ("tap a tile to fix it, or an empty spot to add one", "הקישו על אבן כדי לתקן אותה, או על מקום ריק כדי להוסיף"),
    "enlarge": ("Enlarge", "הגדלה"),
    "tap_or_pick": ("– tap a tile on the photo, or pick it here –", "– הקישו על אבן בתמונה, או בחרו כאן –"),
    "or_maybe": ("or {codes}?", "או {codes}?"),
    "doubt_twist_unconfirmed": (
        "a Twist joker: the reader is not yet checked on a real photo of one",
        "ג'וקר של טוויסט: הזיהוי שלו עוד לא נבדק בצילום אמיתי",
    ),
    "doubt_joker_kind": (
        "a joker, with Twist jokers in play: check which joker it is",
        "ג'וקר, כשג'וקרים של טוויסט במשחק: בדקו איזה ג'וקר זה",
    ),
    "doubt_ink_recoloured": (
        "the colour was read from the ink: check the colour",
        "הצבע נקבע לפי הדיו: בדקו את הצבע",
    ),
    "doubt_ink_colour": (
        "the ink looks another colour: check the colour",
        "צבע הדיו נראה אחר: בדקו את הצבע",
    ),
    "doubt_partial": (
        "the number may go on past this box: check the whole tile",
        "ייתכן שהמספר ממשיך מחוץ למסגרת: בדקו את כל האבן",
    ),
    "doubt_cut_by_frame": (
        "the tile runs off the photo: check its whole number",
        "האבן נחתכת בקצה התמונה: בדקו את המספר המלא שלה",
    ),
    "doubt_overlapping": (
        "this box overlaps another: perhaps the same tile twice, or a box across two tiles",
        "המסגרת הזאת חופפת למסגרת אחרת: אולי אותה אבן פעמיים, או מסגרת על פני שתי אבנים",
    ),
    "doubt_crowded": (
        "this box overlaps its neighbour: perhaps the same tile twice, or no tile here",
        "המסגרת הזאת חופפת לשכנה שלה: אולי אותה אבן פעמיים, או שאין כאן אבן",
    ),
    "doubt_joined": (
        "found as two halves, one round each digit, and joined into one tile: check its number",
        "נמצאה כשני חצאים, אחד סביב כל ספרה, וחוברה לאבן אחת: בדקו את המספר שלה",
    ),
    "doubt_no_colour": (
        "the photo has no colours (black and white, sepia or faded): check this tile's colour",
        "בתמונה אין צבעים (שחור-לבן, ספיה או דהויה): בדקו את הצבע של האבן",
    ),
    "no_colour": (
        "This photo has no colours in it (black and white, sepia or faded), so no tile's colour can be read from it: take it again in colour, or check each tile's colour.",
        "בתמונה אין צבעים (שחור-לבן, ספיה או דהויה), ולכן אי אפשר לקרוא ממנה את צבעי האבנים: צלמו שוב בצבע, או בדקו את הצבע של כל אבן.",
    ),
    "doubt_low_view": (
        "seen from low down, its number is only a few pixels tall: a photo from higher up reads it surely",
        "צולמה מזווית נמוכה, והמספר שלה גבוה רק כמה פיקסלים: צילום מגבוה יותר יקרא אותה בוודאות",
    ),
    "doubt_mirrored": (
        "the photo may be saved mirrored (a front camera's): check this tile's number",
        "ייתכן שהתמונה נשמרה הפוכה, כמו במראה (מצלמה קדמית): בדקו את המספר של האבן",
    ),
    "doubt_few_sure": (
        "the reader could read few of this photo's tiles surely, so it is sure of none: check this tile",
        "הקורא הצליח לקרוא בוודאות רק מעט מהאבנים בתמונה הזאת, ולכן אינו בטוח באף אחת: בדקו את האבן",
    ),
    "few_sure": (
        "The reader could read few of this photo's tiles surely, so it shows none as sure: the photo may be too slanted, shaken or blurred, or of an edition it does not know. Take it again from above, or check each tile.",
        "הקורא הצליח לקרוא בוודאות רק מעט מהאבנים בתמונה הזאת, ולכן אינו מציג אף אחת כוודאית: ייתכן שהתמונה צולמה באלכסון חד מדי, רעדה או מטושטשת, או שזו מהדורה שהוא לא מכיר. צלמו שוב מלמעלה, או בדקו כל אבן.",
    ),
    "doubt_too_close": (
        "this box lies too close to its neighbour for two tiles: perhaps one digit of a 10-13, or the same tile twice",
        "המסגרת הזאת קרובה מדי לשכנה שלה בשביל שתי אבנים: אולי ספרה אחת של 10-13, או אותה אבן פעמיים",
    ),
    "too_many_copies": (
        "{code} is read {n} times: a set has only {limit}. One of them is probably another tile.",
        "{code} נקראה {n} פעמים: במשחק יש רק {limit}. כנראה שאחת מהן היא אבן אחרת.",
    ),
    "move_to": ("Move to", "העברה אל"),
    "move": ("Move", "העברה"),
    "new_meld": ("a new meld", "סדרה חדשה"),
    "no_meld": ("no meld (a lone tile)", "בלי סדרה (אבן בודדת)"),
    "delete_tile": ("Not a tile: delete", "לא אבן: מחיקה"),
    "add_here": ("Add a tile at the marked spot (+):", "הוספת אבן במקום המסומן (+):"),
    "new_tile_code": ("The tile", "האבן"),
    "add_to": ("In", "בתוך"),
    "add_tile": ("Add", "הוספה"),
    "previous_photo": ("Showing the last photo read: {name}", "מוצגת התמונה האחרונה שנקראה: {name}"),
    "clear_photo": ("Clear", "ניקוי"),
    # check the table
    "check_title": ("Check the table", "בדיקת השולחן"),
    "check_intro": (
        "Photograph the table (or type it): every meld is checked, invalid ones say why.",
        "צלמו את השולחן (או הקלידו אותו): כל סדרה נבדקת, ולא תקינות מוסברות.",
    ),
    "table_source": ("The table", "השולחן"),
    "source_photo": ("Photo", "תמונה"),
    "source_type": ("Type", "הקלדה"),
    "type_table": ("The melds on the table", "הסדרות על השולחן"),
    "lone_tiles": (
        "Tiles not in any meld (a meld needs 3 tiles side by side): {tiles}",
        "אבנים שאינן בשום סדרה (סדרה היא 3 אבנים צמודות): {tiles}",
    ),
    "melds_title": ("Melds ({n})", "סדרות ({n})"),
    "no_melds": ("No melds on the table.", "אין סדרות על השולחן."),
    "all_valid": ("All {n} melds are valid.", "כל {n} הסדרות תקינות."),
    "table_total": ("Valid melds on the table: {total} points", "הסדרות התקינות על השולחן: {total} נקודות"),
    "some_invalid": ("{bad} of {n} melds are not valid.", "{bad} מתוך {n} סדרות אינן תקינות."),
    "as_text": ("As text:", "כטקסט:"),
    "initial_title": ("Initial meld", "הורדה ראשונה"),
    "initial_pick": (
        "Melds of a player's first turn (need {threshold} points together)",
        "הסדרות של התור הראשון של שחקן (צריך {threshold} נקודות ביחד)",
    ),
    "initial_ok": ("{total} points: enough to open (needs {threshold}).", "{total} נקודות: מספיק לפתיחה (צריך {threshold})."),
    "initial_short": ("{total} of {threshold} points: {reason}", "{total} מתוך {threshold} נקודות: {reason}"),
    # my turn
    "turn_title": ("My turn", "התור שלי"),
    "table_title": ("The table", "השולחן"),
    "turn_table_checked": ("From 'Check the table'", "מ'בדיקת השולחן'"),
    "turn_table_type": ("Type it", "הקלדה"),
    "type_table_turn": ("The melds on the table (empty: nothing on the table yet)", "הסדרות על השולחן (ריק: עוד אין כלום)"),
    "empty_table": ("The table is empty.", "השולחן ריק."),
    "rack_title": ("My rack", "המעמד שלי"),
    "rack_source": ("The rack", "המעמד"),
    "type_rack": ("The tiles on my rack", "האבנים על המעמד שלי"),
    "opened": ("I have already opened (made my initial meld)", "כבר פתחתי (עשיתי הורדה ראשונה)"),
    "opened_help": ("Before opening, only new melds worth {threshold}+ may be put down.", "לפני הפתיחה אפשר להוריד רק סדרות חדשות בשווי {threshold} לפחות."),
    "rack_empty": ("Type or photograph your rack to get a hint.", "הקלידו או צלמו את המעמד כדי לקבל רמז."),
    "table_meld_invalid": ("Table meld {n} ({tiles}) is not valid: {reason}", "סדרה {n} על השולחן ({tiles}) לא תקינה: {reason}"),
    "rack_invalid": ("The rack cannot be used: {reason}", "אי אפשר להשתמש במעמד: {reason}"),
    "fix_table_first": ("Fix the table first (a hint needs a valid table).", "תקנו קודם את השולחן (רמז צריך שולחן תקין)."),
    "over_supply": (
        "More tiles than a set has, on the rack and the table together: {problems}. A tile may be read wrong: correct it.",
        "יותר אבנים ממה שיש במשחק, במעמד ובשולחן יחד: {problems}. ייתכן שאבן נקראה לא נכון: תקנו אותה.",
    ),
    "thinking": ("Looking for the best play...", "מחפש את המהלך הטוב ביותר..."),
    "best_play": ("Best play", "המהלך הטוב ביותר"),
    "optimal": ("proven best", "מוכח כטוב ביותר"),
    "not_proven": ("best found in the time allowed", "הטוב ביותר שנמצא בזמן"),
    "no_opening": (
        "No opening meld – draw a tile. Your best new melds are worth {best} of the {threshold} points needed ({short} short).",
        "אין הורדה ראשונה – קחו אבן. הסדרות הטובות ביותר שלכם שוות {best} מתוך {threshold} הנקודות הדרושות (חסרות {short}).",
    ),
    "no_play": ("No tile can be played – draw a tile.", "אי אפשר להניח אף אבן – קחו אבן."),
    "play_summary": ("Play {n} tiles ({value} points)", "הניחו {n} אבנים ({value} נקודות)"),
    "opening_points": ("opening with {points} of {threshold}", "פתיחה עם {points} מתוך {threshold}"),
    "play_tiles": ("Tiles to play:", "אבנים להנחה:"),
    "steps": ("Step by step", "צעד אחר צעד"),
    "table_after": ("The table afterwards", "השולחן אחרי המהלך"),
    "placed_mark": ("⁺ a tile from your rack", "⁺ אבן מהמעמד שלך"),
    "rack_left": ("Left on the rack:", "נשאר על המעמד:"),
    "rack_left_none": ("nothing – you go out! 🎉", "כלום – יצאתם! 🎉"),
    "alternatives": ("Other plays ({n})", "מהלכים אחרים ({n})"),
    # end of round
    "round_title": ("End of round", "סוף סיבוב"),
    "game": ("Game", "משחק"),
    "new_game": ("+ New game", "+ משחק חדש"),
    "game_name": ("Name of the game", "שם המשחק"),
    "game_name_example": ("Friday night", "שישי בערב"),
    "game_kind": ("Played with", "משחקים עם"),
    "kind_rummikub": ("Rummikub tiles", "אבני רמיקוב"),
    "kind_closed": ("Cards: closed rummy", "קלפים: רמי סגור"),
    "kind_classic": ("Cards: classic rummy", "קלפים: רמי קלאסי"),
    "players": ("Players (one a line)", "שחקנים (אחד בכל שורה)"),
    "create_game": ("Start the game", "התחלת המשחק"),
    "game_caption": ("{kind} · {players}", "{kind} · {players}"),
    "round_n": ("Round {n}", "סיבוב {n}"),
    "round": ("Round", "סיבוב"),
    "who_went_out": ("Who went out?", "מי יצא?"),
    "pool_exhausted": ("Nobody: the pool is exhausted", "אף אחד: הקופה נגמרה"),
    "rummy_double": ("Rummy! (went out in one turn: double)", "רמי! (יצא בתור אחד: כפול)"),
    "tiles_left": ("Tiles left on {player}'s rack", "האבנים שנשארו במעמד של {player}"),
    "cards_left": ("Cards left in {player}'s hand", "הקלפים שנשארו ביד של {player}"),
    "rack_read_as": ("Read as: {tiles}", "נקרא כ: {tiles}"),
    "waiting_for_photos": ("Waiting for the rack photo of: {players}", "מחכים לתמונת המעמד של: {players}"),
    "waiting_for_racks": ("Type what is left for: {players}", "הקלידו מה נשאר אצל: {players}"),
    "player_typo": ("{player}: {error}", "{player}: {error}"),
    "over_supply_racks": ("More tiles than a set has across the racks: {problems}", "יותר אבנים ממה שיש במשחק במעמדים: {problems}"),
    "player": ("Player", "שחקן"),
    "left": ("Left", "נשאר"),
    "value": ("Value", "ערך"),
    "score": ("Score", "ניקוד"),
    "exhausted_winners": ("Lowest rack wins: {players}", "המעמד הנמוך ביותר מנצח: {players}"),
    "save_round": ("Save the round", "שמירת הסיבוב"),
    "round_saved": ("Round {n} saved.", "סיבוב {n} נשמר."),
    "round_already_saved": ("Round {n} was already saved (not saved twice).", "סיבוב {n} כבר נשמר (לא נשמר פעמיים)."),
    "sheet_title": ("Score sheet", "טבלת ניקוד"),
    "no_rounds": ("No rounds yet.", "עוד אין סיבובים."),
    "total": ("Total", "סה\"כ"),
    "leader": ("Leading: {player} ({total})", "מוביל/ה: {player} ({total})"),
    "coins": ("Coins", "מטבעות"),
    "coin_balance": ("Coin balance (the pot)", "מאזן המטבעות (הקופה)"),
    "pot_caption": (
        "Each round every player puts {entry} coin(s) into the pot and the one who declares takes it; a tie returns every entry.",
        "בכל סיבוב כל שחקן שם {entry} מטבעות בקופה ומי שמכריז לוקח אותה; בתיקו כל אחד מקבל את שלו בחזרה.",
    ),
    "pot_entry": ("Pot entry per player and round (closed rummy), coins", "דמי כניסה לקופה לשחקן בכל סיבוב (רמי סגור), מטבעות"),
    "pot_entry_help": ("Only the closed card game is played for a pot.", "רק ברמי הסגור משחקים על קופה."),
    "game_won": ("{player} wins the game!", "{player} ניצח/ה במשחק!"),
    "export_csv": ("Download the score sheet (CSV)", "הורדת טבלת הניקוד (CSV)"),
    "edit_rounds": ("Edit or delete a round", "עריכה או מחיקה של סיבוב"),
    "which_round": ("Round", "סיבוב"),
    "save_changes": ("Save the changes", "שמירת השינויים"),
    "delete_round": ("Delete this round", "מחיקת הסיבוב"),
    "confirm_delete": ("Delete round {n}? This cannot be undone.", "למחוק את סיבוב {n}? אי אפשר לבטל."),
    "yes_delete": ("Yes, delete it", "כן, למחוק"),
    "cancel": ("Cancel", "ביטול"),
    "round_updated": ("Round {n} updated.", "סיבוב {n} עודכן."),
    "round_deleted": ("Round {n} deleted.", "סיבוב {n} נמחק."),
    # settings
    "settings_title": ("Settings", "הגדרות"),
    "house_rules": ("House rules", "חוקי הבית"),
    "set_initial_meld": ("Initial meld (points)", "הורדה ראשונה (נקודות)"),
    "set_wrap": ("Runs may wrap around 13-1", "רצף יכול לעבור מ-13 ל-1"),
    "set_wrap_help": ("O12 O13 O1 counts as a run.", "O12 O13 O1 נחשב לרצף."),
    "set_joker_penalty": ("A joker left on a rack costs", "ג'וקר שנשאר על המעמד עולה"),
    "set_rearrange": ("A failed rearrangement costs", "סידור מחדש שנכשל עולה"),
    "penalty_three": ("3 tiles (rulebook)", "3 אבנים (לפי החוקים)"),
    "penalty_one": ("1 tile", "אבן אחת"),
    "penalty_none": ("nothing", "כלום"),
    "set_twist": ("Rummikub Twist (special jokers JD, JM, JC)", "רמיקוב טוויסט (ג'וקרים מיוחדים JD, JM, JC)"),
    "set_twist_help": (
        "JD double joker (stands for two tiles in a run), JM mirror joker (the same tiles on both sides), "
        "JC colour-change joker (a run changes colour); each left on a rack costs the joker penalty.",
        "JD ג'וקר כפול (במקום שתי אבנים ברצף), JM ג'וקר מראה (אותן אבנים משני הצדדים), "
        "JC ג'וקר החלפת צבע (הרצף מחליף צבע); כל אחד שנשאר על המעמד עולה כמו ג'וקר.",
    ),
    "set_additions": ("The opening turn may add to melds on the table", "בתור הפתיחה מותר להוסיף לסדרות על השולחן"),
    "set_additions_help": ("Only the new melds count toward the initial meld.", "רק הסדרות החדשות נספרות להורדה הראשונה."),
    "set_dealt": ("Tiles dealt to each player", "אבנים שמחולקות לכל שחקן"),
    "saved": ("Saved", "נשמר"),
    "rulebook_defaults": ("Back to the rulebook's rules", "חזרה לחוקים הרשמיים"),
    "language": ("Language", "שפה"),
    "data": ("Data", "נתונים"),
    "db_path": ("Games, rounds and settings are kept on this computer in:", "המשחקים, הסיבובים וההגדרות נשמרים במחשב הזה ב:"),
    "db_note": (
        "No account, no network. Set RUMMI_DB to use another file.",
        "בלי חשבון ובלי רשת. אפשר להגדיר RUMMI_DB כדי להשתמש בקובץ אחר.",
    ),
    "model_ok": ("Photo model: {path}", "מודל התמונות: {path}"),
    "model_missing": ("Photo model missing in {path}: type the tiles instead.", "מודל התמונות חסר ב-{path}: הקלידו את האבנים."),
    "model_injected": ("Photo model: {spec} (not the shipped weights)", "מודל התמונות: {spec} (לא המודל המצורף)"),
}

STRINGS: dict[str, dict[str, str]] = {key: {"en": en, "he": he} for key, (en, he) in _PAIRS.items()}


def tr(key: str, lang: str = "en", **values: Any) -> str:
    """The text for ``key`` in ``lang`` (English if missing) with ``values`` filled in."""
    entry = STRINGS.get(key)
    if entry is None:
        return key
    text = entry.get(lang) or entry["en"]
    if not values:
        return text
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):
        return entry["en"].format_map(_Missing(values))


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# --------------------------------------------------------------------------- the engine's reasons
#
# The engine explains each verdict as a stable code with parameters (engine.reasons.Reason); the
# command line prints its English (engine.reasons.render), the app says it in the page's language.
# Tile and card codes stay left to right inside a Hebrew sentence: they are wrapped in the
# Unicode marks for a left-to-right island (LRI ... PDI).

LRI, PDI = "\u2066", "\u2069"


def ltr(text: Any, lang: str = "he") -> str:
    """``text`` kept left to right inside right-to-left text (tile codes, card codes), on pages in
    a right-to-left ``lang``; as it is elsewhere."""
    text = str(text)
    return f"{LRI}{text}{PDI}" if text and lang in RTL else text


def _he_n(n: int, one: str, many: str) -> str:
    return one if n == 1 else f"{n} {many}"


def _he_parts(r: Any, sep: str = "; ") -> str:
    return sep.join(_hebrew(p) for p in r.parts)


def _he_names(names: Any, sep: str) -> str:
    return sep.join(f"'{n}'" for n in names)


def _he_and(parts: Any) -> str:
    """A list in Hebrew: "a, b ו-c" (the ו joins a code with a hyphen, a word directly)."""
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    last = parts[-1]
    return ", ".join(parts[:-1]) + (" ו-" if last.startswith(LRI) else " ו") + last


def _he_piece(tiles: str) -> str:
    return "הג'וקר" if tiles == "J" else ltr(tiles)


def _he_to(tiles: str) -> str:
    """"to" a piece: ל joins a code with a hyphen and merges with the ה of "the joker"."""
    return "לג'וקר" if tiles == "J" else f"ל-{ltr(tiles)}"


def _he_from_rack(rack: str) -> list[str]:
    return [f"{ltr(rack)} מהמעמד"] if rack else []


_HE: dict[str, Any] = {
    # tile notation
    "tile_empty": lambda p, r: "אבן ריקה",
    "tile_shape": lambda p, r: f"אבן היא אות צבע ואחריה מספר 1-13, למשל {ltr('R10')}",
    "tile_colour": lambda p, r: "צבע לא מוכר: K (שחור), R (אדום), B (כחול), O (כתום) או J לג'וקר",
    "tile_colour_letter": lambda p, r: f"הצבע חייב להיות אחד מ-{ltr(', '.join(p['colours']))}",
    "tile_number": lambda p, r: "המספרים הם 1-13",
    "twist_off": lambda p, r: f"{ltr(p['tile'])} הוא ג'וקר של רמיקוב טוויסט: רק עם חוק הבית רמיקוב טוויסט (בהגדרות)",
    "meld_empty": lambda p, r: f"סדרה {p['meld']} ריקה (שני '|' ברצף, או אחד בקצה)",
    # one set
    "set_too_few_tiles": lambda p, r: f"סדרה צריכה לפחות {p['min']} אבנים, ב-{ltr(p['tiles']) or 'זו'} יש {p['count']}",
    "set_too_many_jokers": lambda p, r: f"{p['jokers']} ג'וקרים: במשחק יש רק {p['limit']}",
    "set_mixed": lambda p, r: f"{ltr(p['tiles'])} מערבבת צבעים ומספרים: רצף הוא צבע אחד, קבוצה היא מספר אחד",
    "set_same_tile_twice": lambda p, r: f"{ltr(p['tile'])} מופיעה פעמיים: בקבוצה צריך צבעים שונים, ברצף מספרים שונים",
    "group_colour_twice": lambda p, r: f"{ltr(p['tile'])} מופיעה פעמיים: בקבוצה צריך צבעים שונים",
    "group_too_long": lambda p, r: f"בקבוצה יש לכל היותר {p['max']} אבנים, ב-{ltr(p['tiles'])} יש {p['count']}",
    "run_number_twice": lambda p, r: f"{ltr(p['tile'])} מופיעה פעמיים: ברצף צריך מספרים שונים",
    "run_too_long": lambda p, r: f"ברצף יש לכל היותר {p['max']} אבנים, בזה יש {p['count']}",
    "run_wraps": lambda p, r: f"{ltr(p['tiles'])} עוברת מ-13 ל-1: מותר רק עם חוק הבית של רצף מעגלי",
    "run_gaps": lambda p, r: (
        f"{ltr(p['tiles'])} אינה רצף: חסרות {ltr(p['need'])} כדי שהמספרים יהיו עוקבים "
        f"({_he_n(p['missing'], 'חסרה אבן אחת', 'אבנים חסרות')}, {_he_n(p['jokers'], 'ג׳וקר אחד', 'ג׳וקרים')} למלא אותן)"
        if p["jokers"] else
        f"{ltr(p['tiles'])} אינה רצף: חסרות {ltr(p['need'])} כדי שהמספרים יהיו עוקבים "
        f"({_he_n(p['missing'], 'חסרה אבן אחת', 'אבנים חסרות')}, ואין ג׳וקרים למלא אותן)"
    ),
    # Rummikub Twist sets
    "twist_only_specials": lambda p, r: f"ב-{ltr(p['tiles'])} אין אף אבן עם מספר: סדרה צריכה לפחות אחת",
    "twist_double_end": lambda p, r: f"{ltr(p['tiles'])}: הג'וקר הכפול היה עומד במקום מספר מתחת ל-1 או מעל 13",
    "twist_mirror_alone": lambda p, r: f"{ltr(p['tiles'])}: בסדרת מראה יש ג'וקר מראה אחד, אבנים עם מספרים וג'וקרים רגילים בלבד",
    "twist_mirror_unbalanced": lambda p, r: f"{ltr(p['tiles'])} אינה סדרת מראה: האבנים משני צדי ג'וקר המראה חייבות להיות זהות, וכל צד רצף או קבוצה",
    "twist_colour_change_group": lambda p, r: f"{ltr(p['tiles'])}: ג'וקר החלפת הצבע שייך לרצף, לא לקבוצה",
    "twist_colour_change_place": lambda p, r: f"{ltr(p['tiles'])} אינה רצף: ג'וקר החלפת הצבע עומד בין שני חלקי רצף בצבעים שונים, והמספרים ממשיכים",
    "twist_not_a_set": lambda p, r: f"{ltr(p['tiles'])} אינה רצף ואינה קבוצה, לא משנה במקום מה עומדים הג'וקרים",
    # the hint's steps
    "step_lay_down": lambda p, r: f"הניחו {ltr(p['made'])} מהמעמד",
    "step_replace_joker": lambda p, r: (
        f"החליפו את הג'וקר ב-{ltr(p['set'])} ב-{ltr(p['rack'])} מהמעמד, וכך נוצרת {ltr(p['made'])}"),
    "step_break_up": lambda p, r: f"פרקו את {ltr(p['set'])}",
    "step_take": lambda p, r: f"קחו את {_he_and(ltr(t) for t in p['tiles'])} מ-{ltr(p['set'])}",
    "step_split": lambda p, r: f"פצלו את {ltr(p['set'])} ל-{_he_and(ltr(t) for t in p['pieces'])}",
    "step_add": lambda p, r: (
        "הוסיפו " + _he_and([f"{_he_piece(t)} מ-{ltr(s)}" for t, s in zip(p["pieces"], p["sources"])]
                           + _he_from_rack(p["rack"])) + f" ל-{ltr(p['set'])}, וכך נוצרת {ltr(p['made'])}"),
    "step_rearrange": lambda p, r: f"סדרו מחדש את {_he_piece(p['piece'])} כ-{ltr(p['made'])}",
    "step_add_to_piece": lambda p, r: (
        f"הוסיפו {ltr(p['rack'])} מהמעמד {_he_to(p['piece'])}, וכך נוצרת {ltr(p['made'])}"),
    "step_make": lambda p, r: (
        f"הרכיבו {ltr(p['made'])}: " + _he_and([_he_piece(t) for t in p["pieces"]] + _he_from_rack(p["rack"]))),
    # the initial meld
    "initial_no_sets": lambda p, r: "אין סדרות: בהורדה הראשונה צריך לפחות סדרה אחת",
    "initial_invalid_sets": lambda p, r: _he_parts(r),
    "initial_too_low": lambda p, r: f"הסדרות שוות יחד {p['total']} נקודות; בהורדה ראשונה צריך לפחות {p['threshold']}",
    "invalid_set": lambda p, r: f"סדרה {p['set']} ({ltr(p['tiles'])}) לא תקינה: {_he_parts(r)}",
    "table_set_invalid": lambda p, r: f"סדרה {p['set']} על השולחן ({ltr(p['tiles'])}) לא תקינה: {_he_parts(r)}",
    # a turn
    "no_tile_played": lambda p, r: "אף אבן לא הגיעה מהמעמד: בכל תור מניחים לפחות אבן אחת (או לוקחים אבן)",
    "table_tile_taken": lambda p, r: f"{ltr(p['tiles'])} ירדו מהשולחן: מותר להזיז אבנים על השולחן, אסור להחזיר אותן",
    "not_from_rack": lambda p, r: f"{ltr(p['tiles'])} הופיעו על השולחן אבל לא היו לא על השולחן ולא על המעמד",
    "initial_meld_too_low": lambda p, r: (
        (f"הסדרות החדשות שוות {p['total']} נקודות ({ltr(p['sets'])})" if p["sets"] else "אין סדרות חדשות")
        + f"; בהורדה ראשונה צריך לפחות {p['threshold']}"
    ),
    "initial_meld_touched_table": lambda p, r: f"הסדרה {ltr(p['set'])} פורקה או סודרה מחדש: לפני ההורדה הראשונה אסור לגעת בסדרות שעל השולחן",
    "initial_meld_added_to_table": lambda p, r: (
        f"{ltr(p['tiles'])} נוספו לסדרה {ltr(p['set'])} (עכשיו {ltr(p['now'])}): לפני ההורדה הראשונה "
        "מותר להניח רק סדרות חדשות (חוק הבית כבוי)"
    ),
    "joker_not_replaced": lambda p, r: (
        f"הג'וקר ב-{ltr(p['set'])} עמד במקום {ltr(p['stood'])}; "
        + (f"{ltr(p['stood'])} הוזזה מהשולחן: משחררים ג'וקר רק עם האבן שלו מהמעמד"
           if p["moved"] else f"הוא נלקח בלי לשים במקומו {ltr(p['stood'])} מהמעמד")
    ),
    "joker_not_reused": lambda p, r: f"ג'וקר שנלקח מ-{ltr(p['sets'])} חייב לחזור לשולחן באותו תור, בסדרה חדשה עם לפחות אבן אחת מהמעמד",
    "over_supply": lambda p, r: _he_parts(r),
    "supply_copies": lambda p, r: (
        f"{p['count']} ג'וקרים: במשחק יש רק {p['limit']}" if p["tile"] == "J"
        else f"{p['count']} עותקים של {ltr(p['tile'])}: במשחק יש רק {p['limit']}"
    ),
    # a round's score
    "player_ambiguous": lambda p, r: f"'{p['name']}' יכול להיות {_he_names(p['candidates'], ' או ')}: כתבו את השם כפי שנרשם",
    "unknown_player": lambda p, r: f"שחקן לא מוכר '{p['name']}'; השחקנים הם {', '.join(p['players']) if p['players'] else 'אין'}",
    "no_racks": lambda p, r: "לא נמסרו מעמדים: כשהקופה נגמרת צריך את המעמד של כל שחקן",
    "exhausted_named_winner": lambda p, r: f"הקופה נגמרה, לכן המנצח הוא בעל המעמד הנמוך: אל תציינו מנצח (נכתב '{p['name']}')",
    "round_too_few_players": lambda p, r: "בסיבוב צריך לפחות שני שחקנים: מסרו את המעמד של כל שחקן",
    "no_winner": lambda p, r: "ציינו מי יצא, או שהקופה נגמרה",
    "winner_name_empty": lambda p, r: "שם המנצח ריק",
    "winner_rack_not_empty": lambda p, r: f"{p['name']} יצא/ה, לכן המעמד צריך להיות ריק, אבל יש בו {ltr(p['tiles'])}",
    "round_only_winner": lambda p, r: f"בסיבוב צריך לפחות שני שחקנים: {p['name']} לבד",
    # card series
    "series_too_few_cards": lambda p, r: f"סדרה צריכה לפחות {p['min']} קלפים, ב-{ltr(p['cards']) or 'זו'} יש {p['count']}",
    "series_no_jokers": lambda p, r: "משחקים את הרמי הזה בלי ג'וקרים",
    "series_too_many_jokers": lambda p, r: f"{p['jokers']} ג'וקרים: בחפיסה יש רק {p['limit']}",
    "series_mixed": lambda p, r: f"{ltr(p['cards'])} מערבבת צורות וערכים: רצף הוא צורה אחת, קבוצה היא ערך אחד",
    "series_same_card_twice": lambda p, r: f"{ltr(p['card'])} מופיע פעמיים: בקבוצה צריך צורות שונות, ברצף ערכים שונים",
    "series_group_suit_twice": lambda p, r: f"{ltr(p['card'])} מופיע פעמיים: בקבוצה צריך צורות שונות",
    "series_group_too_long": lambda p, r: f"בקבוצה יש לכל היותר {p['max']} קלפים (ג'וקר נספר), ב-{ltr(p['cards'])} יש {p['count']}",
    "series_run_rank_twice": lambda p, r: f"{ltr(p['card'])} מופיע פעמיים: ברצף צריך ערכים שונים",
    "series_run_too_long": lambda p, r: f"ברצף יש לכל היותר {p['max']} קלפים, בזה יש {p['count']}",
    "series_ace_high_only": lambda p, r: f"{ltr(p['cards'])}: האס מעל המלך (Q-K-A) רק עם חוק הבית של אס גבוה",
    "series_wraps": lambda p, r: f"{ltr(p['cards'])} עוברת את הפינה: רצף לא עובר מ-K דרך A ל-2",
    "series_run_gaps": lambda p, r: (
        f"{ltr(p['cards'])} אינה רצף: חסרים {ltr(p['need'])} כדי שהערכים יהיו עוקבים "
        f"({_he_n(p['missing'], 'חסר קלף אחד', 'קלפים חסרים')}, {_he_n(p['jokers'], 'ג׳וקר אחד', 'ג׳וקרים') if p['jokers'] else 'אין ג׳וקרים'} למלא אותם)"
    ),
    # a card round's score
    "cards_no_winner": lambda p, r: "ציינו מי יצא",
    "cards_winner_hand_not_empty": lambda p, r: f"{p['name']} יצא/ה, לכן היד צריכה להיות ריקה",
    "cards_no_other_player": lambda p, r: "בסיבוב צריך לפחות עוד שחקן מלבד המנצח",
    "cards_player_count": lambda p, r: f"רמי קלאסי הוא ל-{p['min']}-{p['max']} שחקנים, יש {p['count']}",
    "cards_rummy_classic_only": lambda p, r: "הכפלת 'רמי' היא חוק בית של רמי קלאסי",
    "cards_too_few_players": lambda p, r: f"בסיבוב צריך לפחות {p['min']} שחקנים, יש {p['count']}",
    "cards_player_twice": lambda p, r: "שחקן מופיע פעמיים",
    # going out with cards
    "declare_not_all_series": lambda p, r: f"{p['count']} הקלפים האלה לא מתחלקים כולם לסדרות",
    "declare_only_groups": lambda p, r: f"{p['count']} הקלפים האלה מתחלקים רק לקבוצות: כדי לצאת צריך לפחות רצף אחד",
    "declare_no_discard": lambda p, r: (
        (f"עם הקלף {ltr(p['cut'])} מהקופה, " if p["cut"] else "")
        + f"אין זריקה שמשאירה {_he_n(p['left'], 'קלף אחד', 'קלפים')} שמתחלקים לסדרות"
        + (" עם לפחות רצף אחד" if p["need_run"] else "")
        + (" (יש זריקות שמשאירות רק קבוצות)" if p["some_only_groups"] else "")
    ),
    # the closed-rummy redeal
    "redeal_pairs": lambda p, r: f"{p['count']} זוגות של קלפים זהים: {ltr(p['cards'])}",
    "redeal_series": lambda p, r: f"{p['count']} קלפים כבר יוצרים סדרות (תשעה מספיקים)",
}


def _hebrew(reason: Any) -> str:
    from engine.reasons import render

    say = _HE.get(reason.code)
    return say(reason.params, reason) if say is not None else render(reason)  # a new code: English until translated


def reason_text(reason: Any, lang: str = "en", fallback: str | None = None) -> str:
    """An engine reason (``engine.reasons.Reason``) in ``lang``; ``fallback`` (the engine's English
    text) when there is no reason object."""
    if reason is None:
        return fallback or ""
    if lang == "he":
        return _hebrew(reason)
    from engine.reasons import render

    return render(reason)


def error_text(exc: Exception, lang: str = "en") -> str:
    """An engine error in ``lang``: a RuleError's reason, a NotationError's token and reason,
    else the error's own (English) message."""
    reason = getattr(exc, "reason", None)
    if reason is not None and hasattr(reason, "code"):
        return reason_text(reason, lang)
    why = getattr(exc, "why_code", None)
    token = getattr(exc, "token", None)
    if why is not None and token is not None:
        where = getattr(exc, "position", None)
        text = f"{ltr(token) if lang == 'he' else token}: {reason_text(why, lang)}"
        if where is not None:
            text += " " + tr("tile_position", lang, n=where + 1)
        return text
    return str(exc)
