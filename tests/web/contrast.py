"""Contrast as WCAG 2 computes it, from the colours chromium renders: every letter on a tile at
4.5:1 or more against its tile, every other text at AA (4.5:1, or 3:1 when large: 24 px, or
18.66 px and bold). A library for tests/web/test_contrast.py.

The background behind a text is found by walking up from it: each ancestor's background colour
(composited when translucent) and the colours of its gradients (every one is tried, the worst
counts), down to the page's own. An ancestor's opacity fades the text toward what is behind it.
A text filled with a gradient (background-clip: text) is measured in each of the gradient's
colours; the hearts, graphics drawn as a glyph, need 3:1 (WCAG 1.4.11). Inactive controls
(disabled, or the keyboard while it is not the player's turn) are left out, as WCAG leaves them
out.
"""

from __future__ import annotations

from typing import Any

TILE_TEXT = 4.5  # WCAG AA for text of a tile's size (the issue asks it of every tile letter)

MEASURE = r"""
(tiles) => {
  const parse = (text) => {
    const m = String(text).match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[,\s/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const colours = (image) =>
    image && image !== 'none' ? [...image.matchAll(/rgba?\([^)]+\)/g)].map((m) => parse(m[0])) : [];
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const key = (c) => c.slice(0, 3).map(Math.round).join(',');
  // Every backdrop a point of `el` may show: the page's, then each ancestor's, top-down.
  const backdrops = (el) => {
    const chain = [];
    for (let n = el; n; n = n.parentElement) chain.unshift(n);
    let under = [[255, 255, 255, 1]];
    for (const n of chain) {
      const style = getComputedStyle(n);
      if (style.backgroundClip === 'text' || style.webkitBackgroundClip === 'text') continue;
      const grads = colours(style.backgroundImage);
      if (grads.length) {
        const next = new Map();
        for (const g of grads) for (const u of under) { const c = over(g, u); next.set(key(c), c); }
        under = [...next.values()].slice(0, 24);
      }
      const bg = parse(style.backgroundColor);
      if (bg && bg[3] > 0) under = under.map((u) => over(bg, u));
    }
    return under;
  };
  const opacity = (el) => {
    let o = 1;
    for (let n = el; n; n = n.parentElement) o *= Number(getComputedStyle(n).opacity);
    return o;
  };
  const inactive = (el) =>
    Boolean(el.closest('[disabled], [aria-disabled="true"], .keyboard.disabled'));
  const visible = (el) => {
    if (!el.getClientRects().length || el.closest('.sr-only, [hidden]')) return false;
    // A closed <details>' content is skipped (content-visibility): not drawn, styles not kept.
    if (el.checkVisibility && !el.checkVisibility({ contentVisibilityAuto: true })) return false;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.left < innerWidth;
  };
  const out = [];
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || seen.has(el) || !visible(el) || inactive(el)) continue;
    if (el.closest('script, style, noscript, option')) continue;
    seen.add(el);
    const style = getComputedStyle(el);
    const size = parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    const large = size >= 24 || (size >= 18.66 && bold);
    const tile = el.closest(tiles);
    let fills = [parse(style.color)];
    if (fills[0][3] === 0) {
      // A text painted by its gradient (background-clip: text): each of its colours.
      for (let n = el; n && fills[0][3] === 0; n = n.parentElement) {
        const s = getComputedStyle(n);
        const clipped = s.backgroundClip === 'text' || s.webkitBackgroundClip === 'text';
        if (clipped) fills = colours(s.backgroundImage);
      }
    }
    const fade = opacity(el);
    if (fade < 0.05) continue; // not drawn (a toast between two messages)
    let worst = Infinity;
    let pair = null;
    for (const bg of backdrops(el)) {
      for (const f of fills) {
        const fg = over([f[0], f[1], f[2], f[3] * fade], bg);
        const r = ratio(fg, bg);
        if (r < worst) { worst = r; pair = [key(fg), key(bg)]; }
      }
    }
    out.push({
      text: node.textContent.trim().slice(0, 24),
      where: `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`,
      tile: tile ? `${tile.tagName.toLowerCase()}.${[...tile.classList].join('.')}` : null,
      ratio: Math.round(worst * 100) / 100,
      // A heart is a graphic (a life, full or lost): 3:1, as WCAG 1.4.11 asks of graphics.
      needs: tile ? 4.5 : large || el.closest('.heart') ? 3 : 4.5,
      colours: pair,
    });
  }
  return out;
}
"""

TILES = ".tile, .mt, .key, .logo, .dist-bar"


def measure(page: Any) -> list[dict[str, Any]]:
    """Every visible text on the page with its contrast, the ratio it needs, and whether it is
    a tile's letter (a board tile, a small tile, a key, the logo's)."""
    return list(page.evaluate(MEASURE, TILES))


def failures(measured: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in measured if m["ratio"] < m["needs"]]


# Tiles of every mark, as every screen draws them (a board's tile, a small tile, a key): put on
# the page so that each palette's colours are measured whatever the game has shown so far.
SAMPLES = """() => {
  document.getElementById('contrast-samples')?.remove();
  const box = document.createElement('div');
  box.id = 'contrast-samples';
  box.className = 'card';
  for (const mark of ['mG', 'mY', 'mX']) {
    const kinds = [['span', 'tile'], ['span', 'tile small'], ['i', 'mt'], ['button', 'key']];
    for (const [tag, cls] of kinds) {
      const el = document.createElement(tag);
      el.className = `${cls} ${mark}`;
      el.textContent = 'Ö';
      box.appendChild(el);
    }
  }
  (document.getElementById('main') || document.body).prepend(box);
}"""
