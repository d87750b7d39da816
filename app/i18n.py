"""The app's words in English and Hebrew (Hebrew pages are laid out right to left).

``tr(key, lang, **values)`` looks a string up and fills in ``{values}``; a key missing in a
language falls back to English, and an unknown key is shown as itself (never an error on the page).
The rules engine's explanations (why a meld is not valid, the hint's steps) are in English.
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
    # tiles and melds
    "meld_n": ("Meld {n}", "סדרה {n}"),
    "meld_valid": ("{kind}, {value} points", "{kind}, {value} נקודות"),
    "meld_invalid": ("not valid", "לא תקינה"),
    "run": ("run", "רצף"),
    "group": ("group", "קבוצה"),
    "notation_help": (
        "Tiles: colour K (black), R (red), B (blue), O (orange) and a number 1-13, J for a joker. "
        "Melds are separated by | or one meld a line.",
        "אבנים: צבע K (שחור), R (אדום), B (כחול), O (כתום) ומספר 1-13, J לג'וקר. "
        "מפרידים בין סדרות ב-| או סדרה בכל שורה.",
    ),
    # photos
    "photo_source": ("Photo from", "תמונה מ"),
    "photo_upload": ("Upload a photo", "העלאת תמונה"),
    "photo_camera": ("Take a photo", "צילום"),
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
    "which_tile": ("Tile", "אבן"),
    "corrected": ("corrected", "תוקנה"),
    "check_it": ("check", "לבדוק"),
    "right_code": ("It is", "היא בעצם"),
    "apply_correction": ("Correct", "תיקון"),
    "corrections_made": ("{n} tile(s) corrected by hand", "{n} אבנים תוקנו ידנית"),
    "undo_corrections": ("Undo my corrections", "ביטול התיקונים שלי"),
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
    "model_fake": ("Photo model: replaying {path} (test mode)", "מודל התמונות: מצב בדיקה ({path})"),
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
