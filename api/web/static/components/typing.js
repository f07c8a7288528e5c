// Typed characters → the language's tiles, as the server reads them (D12, wordlists/normalise.py):
// the longest typed sequence that is a tile or one of the language's spellings wins ("s" "h" →
// SH, "o" "'" → Oʻ, "œ" → O E, "ĳ" → I J, "ё" → Е in Russian), an accented letter without a key
// folds to its letter, anything else is refused. A physical keyboard and the on-screen keys go
// through the same path, so both spell the tiles the server will score.
//
// The row being typed is an entry: {tiles, open, size}. `open` is the typed text of its last
// unit while a longer sequence may still grow from it ("c" of Uzbek "ch", the "o" of "oʻ"), and
// `size` the number of tiles that unit gave (0 while it is only the start of one: pending).

const EMPTY = Object.freeze({ tiles: [], open: "", size: 0 });

export class Typing {
  constructor(lang) {
    this.code = lang.code;
    this.units = new Map(); // typed text → tiles
    for (const tile of lang.tiles) this.units.set(tile, [tile]);
    for (const [typed, tiles] of Object.entries(lang.spellings || {})) this.units.set(typed, tiles);
    this.prefixes = new Set(); // proper beginnings of the longer units
    for (const typed of this.units.keys()) {
      for (let i = 1; i < typed.length; i++) this.prefixes.add(typed.slice(0, i));
    }
  }

  empty() {
    return EMPTY;
  }

  lower(text) {
    const nfc = String(text).normalize("NFC");
    try {
      return nfc.toLocaleLowerCase(this.code);
    } catch {
      return nfc.toLowerCase();
    }
  }

  // Typed text (one character, or a whole tile from an on-screen key) onto `entry`, at most
  // `max` tiles. Returns {entry, refused}: `refused` is text that is no letter here (then the
  // entry does not take it), or null.
  type(entry, text, max) {
    const c = this.lower(text);
    if (entry.open) {
      const longer = entry.open + c;
      if (this.units.has(longer) || this.prefixes.has(longer)) {
        const base = entry.tiles.slice(0, entry.tiles.length - entry.size);
        const tiles = this.units.get(longer) || [];
        if (base.length + tiles.length > max) return { entry, refused: null };
        return { entry: { tiles: [...base, ...tiles], open: longer, size: tiles.length }, refused: null };
      }
    }
    // The open unit is complete; one that was only the start of a longer one spells nothing.
    const dangling = entry.open && !this.units.has(entry.open) ? entry.open : null;
    const tiles = entry.tiles;
    if (this.units.has(c) || this.prefixes.has(c)) {
      const add = this.units.get(c) || [];
      if (tiles.length + add.length > max || (add.length === 0 && tiles.length >= max)) {
        return { entry: dangling ? { tiles, open: "", size: 0 } : entry, refused: dangling };
      }
      return { entry: { tiles: [...tiles, ...add], open: c, size: add.length }, refused: dangling };
    }
    const folded = c.normalize("NFD").replace(/\p{M}/gu, "");
    if (folded !== c && this.units.has(folded)) {
      const add = this.units.get(folded);
      if (tiles.length + add.length > max) return { entry, refused: dangling };
      return { entry: { tiles: [...tiles, ...add], open: "", size: 0 }, refused: dangling };
    }
    return { entry: dangling ? { tiles, open: "", size: 0 } : entry, refused: c };
  }

  // Backspace: the pending start of a tile, else the last tile.
  erase(entry) {
    if (this.pending(entry)) return { tiles: entry.tiles, open: "", size: 0 };
    if (!entry.tiles.length) return entry;
    return { tiles: entry.tiles.slice(0, -1), open: "", size: 0 };
  }

  // The typed start of a tile not yet complete ("c" before the "h" of Uzbek "ch"), or "".
  pending(entry) {
    return entry.open && entry.size === 0 && !this.units.has(entry.open) ? entry.open : "";
  }

  // The tiles a whole text spells, typed one character at a time (what a paste would give).
  spell(text, max = Infinity) {
    let entry = EMPTY;
    const refused = [];
    for (const c of String(text)) {
      const step = this.type(entry, c, max);
      entry = step.entry;
      if (step.refused) refused.push(step.refused);
    }
    const dangling = this.pending(entry);
    if (dangling) refused.push(dangling);
    return { tiles: entry.tiles, refused };
  }
}
