// Typed characters → the language's tiles, as the player types (D12). The server normalises the
// joined text again, so this only has to be good enough to show the right tiles.

const APOSTROPHES = new Set(["'", "’", "ʼ", "`", "´", "‘", "ʻ"]);

export class Typing {
  constructor(lang) {
    this.tiles = new Set(lang.tiles);
    this.multi = lang.tiles.filter((tile) => tile.length > 1);
    this.code = lang.code;
  }

  // The tile sequence after typing `char` onto `current`, or null when `char` is no letter here.
  add(current, char, maxTiles) {
    let c = char.normalize("NFC").toLocaleLowerCase(this.code);
    if (APOSTROPHES.has(c)) c = "ʻ";
    const last = current.length ? current[current.length - 1] : null;
    if (last !== null && this.tiles.has(last + c)) {
      return [...current.slice(0, -1), last + c]; // s + h → sh, o + ʻ → oʻ
    }
    let tile = null;
    if (this.tiles.has(c)) tile = c;
    else {
      const folded = c.normalize("NFD").replace(/\p{M}/gu, "");
      if (folded !== c && this.tiles.has(folded)) tile = folded;
    }
    if (tile === null) {
      // Half of a two-character tile (the ʻ of oʻ) is fine to type, it just adds nothing yet.
      if (this.multi.some((m) => m.slice(1).startsWith(c))) return current;
      return null;
    }
    if (current.length >= maxTiles) return current;
    return [...current, tile];
  }
}
