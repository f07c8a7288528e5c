"""R25: characters of a nickname that take more room than a letter.

A nickname sits in one line beside others (a lobby's seats, a leaderboard), so a character
wider or taller than a letter pushes its neighbours away or spills over them. Unicode has no
glyph widths, so this is judged from what `unicodedata` does know:

- A compatibility decomposition of more than two characters is a ligature *sign* drawn as a
  whole phrase or several letters (U+FDFA, 18 letters; ﬃ; Roman numeral Ⅷ), and `<circle>`,
  `<square>` and `<fraction>` forms are pictures of numbers or words (①, ½, ㍿).
- Conjoining Hangul jamo left over after NFC are not a syllable (modern Korean composes into
  the syllables U+AC00–U+D7A3) but a stack of parts (U+1100 runs).
- Some scripts are pictures several letters wide whatever their East Asian width says
  (cuneiform 𒈙 is "N", narrow): cuneiform, Egyptian and Anatolian hieroglyphs, SignWriting.

East Asian wide letters of a script (Han, kana, Hangul syllables, fullwidth Latin) are fine:
they are the letters those names are written in. Combining marks that do not compose under NFC
are refused anyway (`validate` lets only letters, digits and " _-." through), so marks cannot
stack.
"""

from __future__ import annotations

import unicodedata

MAX_EXPANSION = 2  # letters a compatibility character may stand for (ǆ, ĳ, ﻻ)
_PICTURE_TAGS = ("<circle>", "<square>", "<fraction>")
_JAMO = ((0x1100, 0x11FF), (0xA960, 0xA97F), (0xD7B0, 0xD7FF))
_PICTURE_SCRIPTS = ("CUNEIFORM ", "EGYPTIAN HIEROGLYPH", "ANATOLIAN HIEROGLYPH", "SIGNWRITING ")


def too_wide(c: str) -> bool:
    """A character wider or taller than a letter (see the module's docstring)."""
    decomposition = unicodedata.decomposition(c)
    if decomposition.startswith(_PICTURE_TAGS):
        return True
    if len(unicodedata.normalize("NFKC", c)) > MAX_EXPANSION:
        return True
    code = ord(c)
    if any(low <= code <= high for low, high in _JAMO):
        return True
    return unicodedata.name(c, "").startswith(_PICTURE_SCRIPTS)
