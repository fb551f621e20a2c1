// Ways to put a table in front of the judge in a few taps, beside the page's editor
// (static/app.js, whose hooks this script uses: window.azulPage):
// - "Deal a table": a legal round-1 position dealt from a random seed (api/v1/new-game);
// - "One board, one lot": the board of the player to move and the tiles of one colour on a
//   factory; everything else of the table (the other factories, the other board, whose
//   turn, the round, the bag and the lid) is made up so that the table can exist, and the
//   page says so;
// - a box where a notation, a JSON position or a link to the judge is pasted.
// Its words are the page's (web.page.* of the catalogues, in the data block "words").
"use strict";

(() => {
  const P = window.azulPage;   // app.js runs first (both scripts are deferred, in order)
  if (!P) return;
  const { t, h, button } = P;
  const pressed = (on) => (on ? "true" : "false");

  // -- one board, one lot ------------------------------------------------------------------
  // quick: {color, count, pos} while the mode is on; pos is the page's position object when
  // the mode was entered (any position loaded since is another object: the mode is over).
  let quick = null;
  const active = () => quick !== null && P.pos() === quick.pos;

  const counts = (tiles) => {
    const n = Object.fromEntries(P.COLORS.map((c) => [c, 0]));
    tiles.forEach((tile) => { if (tile in n) n[tile] += 1; });
    return n;
  };
  // The colour with the most tiles left (the first in the book's order on a tie), not `but`.
  const most = (left, but = null) => P.COLORS.filter((c) => c !== but)
    .reduce((best, c) => (left[c] > left[best] ? c : best), P.COLORS.find((c) => c !== but));

  // The table around the player's board and the lot, as a game can have left it: round
  // past every wall tile (one a row and five a wall each tiling, W1), the other player
  // started the round and took a factory's four tiles of one colour to their fourth line
  // (so that a complete line may be on the board, T2), the lot on factory 1 filled to four
  // tiles (R2), three more factories full, the marker in the centre (T3), the floor empty
  // (nothing taken yet by this player), the bag every other tile and the lid empty.
  const fill = (pos) => {
    if (!active()) { quick = null; return; }
    const board = pos.players[0];
    board.floor = [];
    const wallTiles = board.wall.map((row) => row.filter(Boolean).length);
    const total = wallTiles.reduce((a, b) => a + b, 0);
    const seen = counts([...board.pattern_lines.flat(), ...board.wall.flat().filter(Boolean)]);
    const left = Object.fromEntries(P.COLORS.map((c) => [c, 20 - seen[c]]));
    const take = (c) => { left[c] -= 1; return c; };
    const lot = Array.from({ length: Math.min(quick.count, Math.max(0, left[quick.color])) }, () => take(quick.color));
    while (lot.length < 4) lot.push(take(most(left, quick.color)));
    const taken = most(left, quick.color);
    const other = P.blankPosition(2).players[1];
    other.pattern_lines[3] = Array.from({ length: 4 }, () => take(taken));
    const factories = [lot];
    for (let f = 1; f < 4; f += 1) factories.push(Array.from({ length: 4 }, () => take(most(left))));
    factories.push([]);
    Object.assign(pos, {
      phase: "factory_offer", round: Math.max(2, 1 + Math.max(...wallTiles, Math.ceil(total / 5))),
      current_player: 0, start_player: 1, marker_holder: null,
      factories, center: [], lid: {}, players: [board, other],
    });
  };
  P.afterEdit = fill;
  P.quick = active;

  const lotMove = () => ({ kind: "take", source: 0, color: quick.color, line: null, who: "",
    counts: {}, taken: 0, takenEdited: false });
  const enterQuick = () => {
    const doc = P.blankPosition(2);
    P.load(doc, true);
    quick = { color: "blue", count: 1, pos: P.pos() };
    P.brush(quick.color);
    P.change(() => {});
    P.tool("ask");
    P.move(lotMove());
    draw();
    P.say(t("quickStarted"));
  };
  const setLot = (change) => {
    change();
    P.brush(quick.color);
    P.change(() => {});
    P.move({ ...lotMove(), kind: P.currentTool() === "laid" ? "table" : "take" });
    draw();
  };

  // -- a dealt table -----------------------------------------------------------------------
  const deal = async () => {
    quick = null;
    const players = P.pos().players.length;
    const seed = Math.floor(Math.random() * 1e9);
    const reply = await P.call("new-game", { players, seed, lang: P.lang() });
    if (!reply) return;
    if (reply.status !== 200) { P.showProblem(reply); return; }
    P.load(reply.data.state, false);
    P.say(t("dealt", { seed }));
  };

  // -- the paste box -----------------------------------------------------------------------
  let pasted = "";
  const bad = (text) => P.showVerdict(h("p", { class: "bad heading", id: "paste-bad", text: t("pasteBad") }),
    h("p", { class: "paste-why", text }));
  const paste = async () => {
    const text = pasted.trim().replace(/^\ufeff/, "");
    quick = null;
    if (!text) { bad(t("pasteEmpty")); return; }
    if (text.startsWith("{") || text.startsWith("[")) {
      let doc;
      try { doc = JSON.parse(text); } catch { bad(t("pasteJson")); return; }
      if (!doc || typeof doc !== "object" || Array.isArray(doc)) { bad(t("pasteUnknown")); return; }
      await P.openText(text);
      return;
    }
    const link = /^(https?:\/\/|\/|\.\/|\?)/i.test(text) || /[?&]position=/.test(text);
    if (link) {
      let query = null;
      try { query = new URL(text, window.location.href).searchParams; } catch { /* not a link */ }
      if (!query || !query.get("position")) { bad(t("pasteNoPosition")); return; }
      await P.openLink(query, "pasteBad");
      return;
    }
    if (/\s/.test(text) || text.length > 2000) { bad(t("pasteUnknown")); return; }
    await P.openLink(new URLSearchParams({ position: text }), "pasteBad");
  };

  // -- drawing -----------------------------------------------------------------------------
  const draw = () => {
    const box = document.getElementById("start");
    if (!box) return;
    const on = active();
    const keep = box.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const field = h("input", { type: "text", id: "paste", autocomplete: "off", spellcheck: "false",
      placeholder: t("pastePlaceholder"), oninput: (e) => { pasted = e.target.value; },
      onkeydown: (e) => { if (e.key === "Enter") { e.preventDefault(); paste(); } } });
    field.dataset.key = "paste";
    field.value = pasted;
    const parts = [h("div", { class: "start-row", role: "group", "aria-label": t("startLabel") },
      button(t("deal"), deal, { key: "deal", id: "deal", class: "primary" }),
      button(t("quick"), () => { if (active()) { quick = null; P.load(P.blankPosition(2), true); } else enterQuick(); },
        { key: "quick", id: "quick", "aria-pressed": pressed(on) })),
    h("div", { class: "field paste-field" }, h("label", { for: "paste", text: t("pasteLabel") }), field,
      button(t("pasteOpen"), paste, { key: "paste-open", id: "paste-open" }))];
    if (on) {
      parts.push(h("div", { class: "quick-panel", id: "quick-panel" },
        h("div", { class: "lot", role: "group", "aria-label": t("lotColour") },
          h("span", { class: "tool-label", text: t("lotColour") }),
          P.COLORS.map((c) => button(P.glyph(c),
            () => setLot(() => { quick.color = c; }),
            { class: `tile ${c} brush-choice`, key: `quick-color:${c}`, "aria-pressed": pressed(quick.color === c),
              "aria-label": t(c), title: t(c) }))),
        h("div", { class: "lot", role: "group", "aria-label": t("lotCount") },
          h("span", { class: "tool-label", text: t("lotCount") }),
          [1, 2, 3, 4].map((n) => button(String(n), () => setLot(() => { quick.count = n; }),
            { class: "choice", key: `quick-count:${n}`, "aria-pressed": pressed(quick.count === n) }))),
        h("p", { class: "note", id: "quick-help", text: t("quickHelp") }),
        h("p", { class: "note inferred", id: "quick-inferred", text: t("quickInferred") })));
    }
    box.replaceChildren(...parts);
    if (keep) box.querySelector(`[data-key="${CSS.escape(keep)}"]`)?.focus();
  };
  P.draw = draw;

  // The blank table: a way to start, not a list of what it lacks.
  P.emptyPrompt = () => h("div", { class: "empty-state", id: "empty-state" },
    h("p", { text: t("emptyTable") }),
    button(t("deal"), deal, { key: "deal-empty", class: "primary" }), " ",
    button(t("quick"), enterQuick, { key: "quick-empty" }));
})();
