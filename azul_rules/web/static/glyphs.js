// The tiles' glyphs, shared by the page's scripts (app.js, table.js, play.js,
// scorekeeper.js), which run after this one: a tile shows its colour's shape, the same
// as in the pictures (azul_rules/svg/_parts.py _GLYPHS; tests check they are equal), in
// every language (a letter would be English's: B for bleu?).  The first player marker
// shows its 1.  A glyph is decoration (aria-hidden): the tile's label names its colour in
// the page's language.
"use strict";

(() => {
  // One path per colour, in a 20-unit box.
  const PATHS = Object.freeze({
    blue: "M10 4.5L15.5 10L10 15.5L4.5 10Z",
    yellow: "M15 10A5 5 0 1 1 5 10A5 5 0 1 1 15 10Z",
    red: "M5.5 5.5L14.5 14.5M14.5 5.5L5.5 14.5",
    black: "M5 6.5H15M5 10H15M5 13.5H15",
    white: "M10 4.5V15.5M4.5 10H15.5",
  });
  const SVG = "http://www.w3.org/2000/svg";

  // The glyph of a colour (an inline <svg class="glyph" data-glyph="COLOUR">), or the
  // marker's 1 (a <span class="glyph">); nothing for anything else (an empty space).
  const glyph = (color) => {
    if (color === "marker") {
      const one = document.createElement("span");
      one.className = "glyph";
      one.setAttribute("aria-hidden", "true");
      one.textContent = "1";
      return one;
    }
    if (!Object.hasOwn(PATHS, color)) return null;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 20 20");
    svg.setAttribute("class", "glyph");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    svg.setAttribute("data-glyph", color);
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", PATHS[color]);
    svg.append(path);
    return svg;
  };

  window.azulGlyphs = Object.freeze({ PATHS, glyph });
})();
