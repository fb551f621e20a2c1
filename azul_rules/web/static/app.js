// The Azul judge's page: build a position by clicking, ask about a move, audit claimed
// scores, replay a recorded game.  Plain JavaScript, no build step, no outside resource:
// every answer comes from the JSON API beside the page (api/v1/...), which is the judge.
// The editor's model is the position in the library's JSON format (docs/json-format.md).
"use strict";

(() => {
  const COLORS = ["blue", "yellow", "red", "black", "white"];
  // A tile's glyph, the pictures' shape of its colour (static/glyphs.js, loaded first).
  const { glyph } = window.azulGlyphs;
  const FACTORIES = { 2: 5, 3: 7, 4: 9 };
  const FLOOR_SIZE = 7;
  const NARROW_BELOW = 720;   // px: a picture's area narrower than this gets the narrow picture
  const PHASES = ["factory_offer", "wall_tiling", "refill", "game_over"];

  // -- words ------------------------------------------------------------------------------
  // Every language's words, from the catalogues (azul_rules/text/LANG.po, keys web.page.*),
  // written into the page by the server: {en: {open: "...", ...}, fr: {...}, ...}.
  const WORDS = JSON.parse(document.getElementById("words").textContent);
  const LANGUAGES = Object.keys(WORDS);
  const SOURCE = "en";

  let lang = SOURCE;
  // A phrase is a template: {p} a figure, {{ and }} a brace (as in the catalogues).
  // A counted word, {n:tile|tiles}: the form the count takes by the catalogue's plural
  // rule ("_plural": one digit a count from 0 to 199; past it, 100 + count % 100).
  const pluralForm = (count, forms) => {
    const n = Math.abs(Number(String(count).replace("\u2212", "-"))) || 0;
    const rule = WORDS[lang]?._plural ?? WORDS[SOURCE]?._plural ?? "";
    const index = Number(rule[n < 200 ? n : 100 + (n % 100)] ?? forms.length - 1);
    return forms[Math.min(index, forms.length - 1)];
  };
  const t = (key, params = {}) => {
    const text = WORDS[lang]?.[key] ?? WORDS[SOURCE]?.[key] ?? key;
    return text.replace(/\{\{|\}\}|\{(\w+)(?::([^{}]*))?\}/g, (whole, name, forms) => (
      name === undefined ? whole[0]
        : forms !== undefined ? pluralForm(params[name], forms.split("|"))
          : String(params[name] ?? "")));
  };
  const colorWord = (c) => (c === "marker" ? t("markerTile") : t("tileOf", { color: t(c) }));

  // -- the model ---------------------------------------------------------------------------
  const blankBoard = () => ({
    score: 0, pattern_lines: [[], [], [], [], []],
    wall: Array.from({ length: 5 }, () => Array(5).fill(null)), floor: [],
  });
  const blankPosition = (players = 2) => ({
    format_version: 1, variant: "colored", phase: "factory_offer", round: 1,
    current_player: 0, start_player: 0, marker_holder: null,
    factories: Array.from({ length: FACTORIES[players] }, () => []), center: [],
    bag: {}, lid: {}, rng_state: null,
    players: Array.from({ length: players }, blankBoard),
  });

  let pos = blankPosition();
  let bagIsRest = true;       // the bag is worked out: 20 of each colour less the rest
  let brush = "blue";
  let focusAfter = null;      // the data-key to focus after the next drawing
  const move = { who: "", kind: "take", source: null, color: null, line: null,
                 counts: {}, taken: 0, takenEdited: false, column: null, text: "" };
  let verdictOf = null;       // {kind: "check"|"audit"|"apply"|"record", request, response}
  let record = null;          // {doc, at, reply}
  let tool = "ask";           // what a click on the picture does: "ask" about a move, or "edit" the table
  let lastPlayed = null;      // {move, player}: the move just played, marked on the next picture
  // What static/table.js gives (draw, afterEdit, emptyPrompt, quick) and takes (below).
  const hooks = window.azulPage ?? {};
  window.azulPage = hooks;

  const wallColor = (row, column) => COLORS[(column - row + 5) % 5];

  // JSON numbers are doubles in JavaScript: a 64-bit generator state or a large seed would
  // lose its last digits.  They are carried as tagged strings inside the page, and written
  // back as the same digits.
  const TAG = "#integer:";
  const parseJson = (text) => JSON.parse(text.replace(/"(rng_state|seed)"(\s*):(\s*)(-?\d+)(?![\d.eE])/g, `"$1"$2:$3"${TAG}$4"`));
  const toJson = (value, indent) => JSON.stringify(value, null, indent)
    .replace(new RegExp(`"${TAG}(-?\\d+)"`, "g"), "$1");

  const usedTiles = (doc) => {
    const used = Object.fromEntries(COLORS.map((c) => [c, 0]));
    const count = (tile) => { if (tile in used) used[tile] += 1; };
    doc.factories.forEach((f) => f.forEach(count));
    doc.center.forEach(count);
    for (const board of doc.players) {
      board.pattern_lines.forEach((l) => l.forEach(count));
      board.wall.forEach((row) => row.forEach((tile) => tile && count(tile)));
      board.floor.forEach(count);
    }
    COLORS.forEach((c) => { used[c] += doc.lid[c] ?? 0; });
    return used;
  };
  const restOfBag = () => {
    const used = usedTiles(pos);
    const bag = {};
    COLORS.forEach((c) => { if (20 - used[c] > 0) bag[c] = 20 - used[c]; });
    return bag;
  };
  const positionDocument = () => {
    const doc = structuredClone(pos);
    if (bagIsRest) doc.bag = restOfBag();
    return doc;
  };

  // A position read back from the server (or a file the server accepted): every field
  // the editor shows is filled in with the format's defaults.
  const adopt = (doc, rest = false) => {
    const players = doc.players.length;
    pos = {
      format_version: 1, variant: doc.variant ?? "colored", phase: doc.phase ?? "factory_offer",
      round: doc.round ?? null, current_player: doc.current_player,
      start_player: doc.start_player ?? doc.current_player, marker_holder: doc.marker_holder ?? null,
      factories: doc.factories, center: doc.center ?? [], bag: doc.bag ?? {}, lid: doc.lid ?? {},
      rng_state: doc.rng_state ?? null,
      players: doc.players.map((b) => ({ score: b.score, pattern_lines: b.pattern_lines, wall: b.wall, floor: b.floor ?? [] })),
    };
    if (doc.last_scoring) pos.last_scoring = doc.last_scoring;
    bagIsRest = rest;
    if (![2, 3, 4].includes(players)) bagIsRest = false;
  };

  // Every edit goes through here: the history (last_scoring) no longer fits a changed table.
  const edit = (change, key = null) => {
    change();
    hooks.afterEdit?.(pos);
    delete pos.last_scoring;
    lastPlayed = null;
    focusAfter = key;
    drawEditor();
    drawMove();
    drawAudit();
    drawJson();
    focusAfter = null;
    schedulePicture();
  };

  // A typed value (a score, the round, the lid): the controls stay as they are, so that
  // moving on with Tab is never disturbed; only what follows from the value is redrawn.
  const quietly = (change) => {
    change();
    delete pos.last_scoring;
    if (bagIsRest) {
      const rest = restOfBag();
      COLORS.forEach((c) => {
        const box = document.querySelector(`[data-key="bag:${c}"]`);
        if (box) box.value = String(rest[c] ?? 0);
      });
    }
    drawJson();
    schedulePicture();
  };

  // -- talking to the judge ----------------------------------------------------------------
  const api = async (path, body) => {
    const response = await fetch(`api/v1/${path}?lang=${lang}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: toJson(body),
    });
    const type = response.headers.get("Content-Type") ?? "";
    if (type.startsWith("image/svg+xml")) return { status: response.status, svg: await response.text() };
    return { status: response.status, data: parseJson(await response.text()) };
  };

  // -- building the page -------------------------------------------------------------------
  // The element builder, shared with the other scripts (static/dom.js, loaded first).
  const { h, button } = window.azulDom;
  const pressed = (on) => (on ? "true" : "false");
  const uid = (() => { let n = 0; return (stem) => `${stem}-${++n}`; })();

  const labelled = (label, control) => {
    const id = control.id || uid("f");
    control.id = id;
    return h("div", { class: "field" }, h("label", { for: id, text: label }), control);
  };
  const select = (key, options, current, onchange) => h("select", { key, onchange },
    options.map(([value, label]) => h("option", { value: String(value), selected: String(value) === String(current) }, label)));

  // Redraws a container, keeping the keyboard focus where it was (or where asked).
  const redraw = (container, build) => {
    const active = document.activeElement;
    const held = container.contains(active) ? active?.dataset?.key : null;
    container.replaceChildren(...[build()].flat());
    for (const key of [focusAfter, held]) {
      const target = key ? container.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
      if (!target) continue;
      if (!target.disabled) target.focus();
      else (target.closest("[data-group]")?.querySelector("button:not([disabled])") ?? container.querySelector("button:not([disabled])"))?.focus();
      if (key === focusAfter) focusAfter = null;
      break;
    }
  };

  // A tile of the editor: its colour and its glyph (the marker its 1), never colour alone.
  const tileButton = (tile, place, remove, key) => button(
    glyph(tile), remove, {
      class: `tile ${tile}`, key, "aria-label": t("removeFrom", { tile: colorWord(tile), place }),
      title: colorWord(tile),
    });

  const addButton = (place, add, key, allowed = true) => {
    return button("+", add, { class: `add ${brush}`, key, disabled: !allowed,
      "aria-label": t("addTo", { tile: colorWord(brush), place }), title: t("addTo", { tile: colorWord(brush), place }) });
  };

  // The game's settings.
  const settingsPart = () => {
    const players = pos.players.length;
    const who = Array.from({ length: players }, (_, p) => [p, t("player", { p: p + 1 })]);
    const round = h("input", { type: "number", min: "1", max: "999", key: "round", value: pos.round ?? "",
      placeholder: t("roundAuto"), inputmode: "numeric",
      onchange: (e) => quietly(() => { const v = parseInt(e.target.value, 10); pos.round = Number.isFinite(v) ? v : null; }) });
    return h("fieldset", { class: "settings" }, h("legend", { text: t("settings") }),
      labelled(t("players"), select("players", [[2, "2"], [3, "3"], [4, "4"]], players,
        (e) => edit(() => resize(parseInt(e.target.value, 10)), "players"))),
      labelled(t("variant"), select("variant", [["colored", t("colored")], ["grey", t("grey")]], pos.variant,
        (e) => edit(() => { pos.variant = e.target.value; }, "variant"))),
      labelled(t("phase"), select("phase", PHASES.map((p) => [p, t(p)]), pos.phase,
        (e) => edit(() => { pos.phase = e.target.value; }, "phase"))),
      labelled(t("round"), round),
      labelled(t("toMove"), select("current", who, pos.current_player,
        (e) => edit(() => { pos.current_player = parseInt(e.target.value, 10); }, "current"))),
      labelled(t("started"), select("start", who, pos.start_player,
        (e) => edit(() => { pos.start_player = parseInt(e.target.value, 10); }, "start"))),
      labelled(t("markerTaken"), select("holder", [["", t("inCentre")], ...who.map(([p]) => [p, t("takenBy", { p: p + 1 })])],
        pos.marker_holder ?? "", (e) => edit(() => { pos.marker_holder = e.target.value === "" ? null : parseInt(e.target.value, 10); }, "holder"))));
  };

  const resize = (players) => {
    const old = pos.players;
    pos.players = Array.from({ length: players }, (_, p) => old[p] ?? blankBoard());
    const count = FACTORIES[players];
    pos.factories = Array.from({ length: count }, (_, f) => pos.factories[f] ?? []);
    for (const key of ["current_player", "start_player"]) if (pos[key] >= players) pos[key] = 0;
    if (pos.marker_holder !== null && pos.marker_holder >= players) pos.marker_holder = null;
  };

  // The tile to add, chosen in the editor (keys brush:COLOUR) or above the picture (pbrush:COLOUR).
  const brushChoices = (stem) => h("div", { class: "brush", "data-group": stem },
    [...COLORS, "marker"].map((c) => button(glyph(c),
      () => { brush = c; focusAfter = `${stem}:${c}`; drawEditor(); drawTools(); },
      { class: `tile ${c} brush-choice`, key: `${stem}:${c}`, "aria-pressed": pressed(brush === c),
        "aria-label": c === "marker" ? t("markerTile") : t(c), title: c === "marker" ? t("markerTile") : t(c) })));
  const brushPart = () => h("fieldset", { class: "brush" }, h("legend", { text: t("brush") }), brushChoices("brush"));

  // A place holding tiles (a factory, the centre, a pattern line, a floor).
  const tilesPlace = (name, tiles, keyStem, { limit = Infinity, markerOk = false, onAdd = null } = {}) => {
    const group = h("div", { class: "tiles", "data-group": keyStem });
    tiles.forEach((tile, i) => group.append(tileButton(tile, name, () => edit(() => {
      tiles.splice(i, 1);
      if (tile === "marker") pos.marker_holder = null;
    }, `add:${keyStem}`), `tile:${keyStem}:${i}`)));
    const room = tiles.length < limit && (brush !== "marker" || markerOk);
    group.append(addButton(name, () => edit(() => (onAdd ? onAdd() : tiles.push(brush)), `add:${keyStem}`), `add:${keyStem}`, room));
    return group;
  };

  const tablePart = () => {
    const players = pos.players.length;
    const factories = pos.factories.map((tiles, f) => {
      const name = t("factory", { n: f + 1 });
      return h("div", { class: "factory" }, h("h4", { text: name }), tilesPlace(name, tiles, `factory:${f}`, { limit: 4 }));
    });
    const centreName = t("centre");
    const centre = h("div", { class: "factory centre" }, h("h4", { text: centreName }),
      pos.marker_holder === null && !pos.players.some((b) => b.floor.includes("marker"))
        ? h("p", { class: "note", text: `${t("markerTile")}: ${t("inCentre")}` }) : null,
      tilesPlace(centreName, pos.center, "center", { markerOk: true, onAdd: () => {
        if (brush === "marker") {
          pos.players.forEach((b) => { b.floor = b.floor.filter((x) => x !== "marker"); });
          pos.marker_holder = null;
        } else pos.center.push(brush);
      } }));
    return h("fieldset", { class: "table", "data-players": players }, h("legend", { text: t("table") }), ...factories, centre);
  };

  const supplyPart = () => {
    const rest = restOfBag();
    const counter = (which, c) => {
      const value = which === "bag" && bagIsRest ? rest[c] ?? 0 : pos[which][c] ?? 0;
      const input = h("input", { type: "number", min: "0", max: "20", value: String(value), key: `${which}:${c}`,
          disabled: which === "bag" && bagIsRest, class: `count ${c}`, inputmode: "numeric",
          onchange: (e) => quietly(() => {
            const v = Math.max(0, Math.min(20, parseInt(e.target.value, 10) || 0));
            if (v) pos[which][c] = v; else delete pos[which][c];
          }) });
      input.id = uid(which);
      return h("div", { class: "count-field" },
        h("label", { for: input.id }, h("span", { class: `mini tile ${c}`, "aria-hidden": "true" }, glyph(c)),
          h("span", { class: "sr", text: t(which === "bag" ? "bagCount" : "lidCount", { color: t(c) }) })), input);
    };
    const restBox = h("input", { type: "checkbox", key: "bag-rest", checked: bagIsRest,
      onchange: (e) => edit(() => { bagIsRest = e.target.checked; if (!bagIsRest) pos.bag = rest; }, "bag-rest") });
    return h("fieldset", { class: "supply" }, h("legend", { text: t("supply") }),
      h("div", { class: "counts" }, h("h4", { text: t("lid") }), h("div", { class: "count-row" }, COLORS.map((c) => counter("lid", c)))),
      h("div", { class: "counts" }, h("h4", { text: t("bag") }),
        h("div", { class: "field check" }, restBox, h("label", { for: (restBox.id = uid("rest")), text: t("bagRest") })),
        h("div", { class: "count-row" }, COLORS.map((c) => counter("bag", c)))));
  };

  const boardPart = (board, p) => {
    const title = t("board", { p: p + 1 });
    const score = h("input", { type: "number", min: "0", max: "999", value: String(board.score), key: `score:${p}`,
      inputmode: "numeric", onchange: (e) => quietly(() => { board.score = parseInt(e.target.value, 10) || 0; }) });
    const lines = board.pattern_lines.map((tiles, i) => {
      const name = `${title}, ${t("line", { n: i + 1 })}`;
      return h("div", { class: "line", "data-capacity": i + 1 }, h("span", { class: "line-number", text: String(i + 1), "aria-hidden": "true" }),
        tilesPlace(name, tiles, `line:${p}:${i}`, { limit: i + 1 }));
    });
    const grey = pos.variant === "grey";
    const wall = h("div", { class: "wall", role: "group", "aria-label": `${title}, ${t("wall")}` });
    board.wall.forEach((row, r) => row.forEach((tile, c) => {
      const printed = wallColor(r, c);
      const where = grey ? t("wallGrey", { r: r + 1, c: c + 1 }) : t("wallSpace", { r: r + 1, c: c + 1, color: t(printed) });
      const state = tile ? colorWord(tile) : `${t("emptySpace")}, ${t("placeTile")}`;
      wall.append(button(tile ? glyph(tile) : null, () => edit(() => {
        if (tile) board.wall[r][c] = null;
        else if (!grey) board.wall[r][c] = printed;
        else if (brush !== "marker") board.wall[r][c] = brush;
      }, `wall:${p}:${r}:${c}`), {
        class: `space ${tile ? `tile ${tile}` : "empty"} ${grey ? "grey" : `space-${printed}`}`,
        key: `wall:${p}:${r}:${c}`, "aria-pressed": pressed(Boolean(tile)), "aria-label": `${title}, ${where}: ${state}`,
      }));
    }));
    const floorName = `${title}, ${t("floor")}`;
    const floor = tilesPlace(floorName, board.floor, `floor:${p}`, { limit: FLOOR_SIZE, markerOk: true, onAdd: () => {
      if (brush === "marker") {
        pos.players.forEach((b) => { b.floor = b.floor.filter((x) => x !== "marker"); });
        board.floor.push("marker");
        pos.marker_holder = p;
      } else board.floor.push(brush);
    } });
    const moving = pos.current_player === p;
    return h("fieldset", { class: `board${moving ? " moving" : ""}` },
      h("legend", {}, title, moving ? h("span", { class: "badge", text: t("toMoveBadge") }) : null),
      labelled(t("score"), score),
      h("div", { class: "board-grid" },
        h("div", { class: "lines" }, h("h4", { text: t("lines") }), lines),
        h("div", {}, h("h4", { text: t("wall") }), wall)),
      h("div", { class: "floor" }, h("h4", { text: t("floor") }), floor));
  };

  const drawEditor = () => redraw(document.getElementById("editor"), () => [
    settingsPart(), brushPart(), tablePart(), supplyPart(),
    h("div", { class: "boards" }, pos.players.map(boardPart)),
  ]);

  // -- the files bar -----------------------------------------------------------------------
  const drawFiles = () => {
    const input = h("input", { type: "file", accept: "application/json,.json", id: "open-file", key: "open-file",
      onchange: async (e) => { const file = e.target.files?.[0]; if (file) await openText(await file.text()); e.target.value = ""; } });
    redraw(document.getElementById("files"), () => [
      h("div", { class: "field file" }, h("label", { for: "open-file", text: t("open") }), input),
      button(t("clear"), () => { record = null; adopt(blankPosition(pos.players.length), true); edit(() => {}, "clear"); drawRecord(); },
        { key: "clear" }),
    ]);
  };

  // A file or pasted text: a record (it has "moves") or a position.
  const openText = async (text) => {
    let doc;
    try { doc = parseJson(text.replace(/^\ufeff/, "")); } catch (error) {
      showProblem({ status: 400, data: { title: t("unreadable"), errors: [{ path: "$", problem: String(error.message) }] } });
      return;
    }
    if (doc && typeof doc === "object" && !Array.isArray(doc) && "moves" in doc) await openRecord(doc);
    else await openPosition(doc);
  };

  const openPosition = async (doc) => {
    const reply = await call("problems", { state: doc, lang });
    if (!reply) return;
    if (reply.status !== 200) { showProblem(reply); return; }
    record = null;
    adopt(doc, false);
    focusAfter = null;
    drawAll();
    say(t("loaded", { what: t("aPosition") }));
    const problems = reply.data.problems;
    if (problems.length && problems.every((p) => p.code === "PHASE_MISMATCH" && p.rule === "P7")) say(t("offerOver"));
    else if (problems.length) showProblem({ status: 422, data: { title: t("impossible"), errors: problems } });
  };

  // -- asking about a move -----------------------------------------------------------------
  const currentMove = () => {
    const player = move.who === "" ? {} : { player: parseInt(move.who, 10) };
    if (move.kind === "text") return move.text.trim() ? parseTyped(move.text) : null;
    if (move.kind === "place") {
      if (move.line === null || move.column === null) return null;
      return { type: "place_tile", line: move.line, column: move.column, ...player };
    }
    if (move.source === null || move.color === null) return null;
    const source = move.source === "center" ? "center" : move.source;
    if (move.kind === "take") {
      if (move.line === null) return null;
      return { type: "take", source, color: move.color, line: move.line, ...player };
    }
    const placements = Object.fromEntries(Object.entries(move.counts).filter(([, n]) => n > 0));
    if (!Object.keys(placements).length && !move.taken) return null;
    return { type: "table_take", source, color: move.color, count: move.taken, placements, ...player };
  };
  const parseTyped = (text) => {
    const trimmed = text.trim();
    if (trimmed.startsWith("{")) { try { return parseJson(trimmed); } catch { return trimmed; } }
    return trimmed;
  };

  const missing = () => {
    if (move.kind === "text") return t("aMove");
    if (move.kind === "place") return move.line === null ? t("aLine") : t("aColumn");
    if (move.source === null) return t("aSource");
    if (move.color === null) return t("aColour");
    return move.kind === "take" ? t("aDestination") : t("someTiles");
  };

  const placeName = (line) => (line === "floor" ? t("floorDest") : t("line", { n: line + 1 }));
  const moveWords = (m) => {
    if (typeof m === "string") return m;
    if (m.type === "place_tile") return `${t("line", { n: m.line + 1 })} → ${t("column", { n: m.column + 1 })}`;
    const from = m.source === "center" ? t("centre") : t("factory", { n: m.source + 1 });
    if (m.type === "take") return `${from}, ${t(m.color)}, → ${placeName(m.line)}`;
    if (m.type === "table_take") {
      const where = Object.entries(m.placements).map(([k, n]) => `${n} → ${placeName(k === "floor" ? k : parseInt(k, 10))}`);
      return `${from}, ${m.count} × ${t(m.color)}: ${where.join(", ") || "—"}`;
    }
    return JSON.stringify(m);
  };

  const choice = (group, value, label, current, onpick, extra = {}) => button(label, () => { focusAfter = `${group}:${value}`; onpick(); drawMove(); },
    { key: `${group}:${value}`, "aria-pressed": pressed(current === value), class: `choice ${extra.class ?? ""}`, ...extra.props });

  const drawMove = () => redraw(document.getElementById("move"), () => {
    const players = pos.players.length;
    const who = labelled(t("who"), select("who", [["", t("whoTurn")], ...Array.from({ length: players }, (_, p) => [p, t("player", { p: p + 1 })])],
      move.who, (e) => { move.who = e.target.value; focusAfter = "who"; drawMove(); }));
    const kinds = h("fieldset", { class: "kinds", "data-group": "kind" }, h("legend", { text: t("kind") }),
      [["take", t("kindTake")], ["table", t("kindTable")], ["place", t("kindPlace")], ["text", t("kindText")]].map(([k, label]) =>
        choice("kind", k, label, move.kind, () => { move.kind = k; })));
    const parts = [who, kinds];
    if (move.kind === "take" || move.kind === "table") {
      const sources = [...pos.factories.map((_, f) => [f, t("factory", { n: f + 1 })]), ["center", t("centre")]];
      parts.push(h("fieldset", { class: "choices", "data-group": "source" }, h("legend", { text: t("source") }),
        sources.map(([s, label]) => choice("source", s, label, move.source, () => { move.source = s; }))));
      parts.push(h("fieldset", { class: "choices", "data-group": "color" }, h("legend", { text: t("colour") }),
        COLORS.map((c) => choice("color", c, t(c), move.color, () => { move.color = c; }, { class: `swatch ${c}` }))));
      const lines = [0, 1, 2, 3, 4, "floor"];
      if (move.kind === "take") {
        parts.push(h("fieldset", { class: "choices", "data-group": "line" }, h("legend", { text: t("destination") }),
          lines.map((l) => choice("line", l, placeName(l), move.line, () => { move.line = l; }))));
      } else {
        const counted = (l) => move.counts[String(l)] ?? 0;
        const change = (l, by) => {
          move.counts[String(l)] = Math.max(0, counted(l) + by);
          if (!move.takenEdited) move.taken = Object.values(move.counts).reduce((a, b) => a + b, 0);
        };
        parts.push(h("fieldset", { class: "counted", "data-group": "place" }, h("legend", { text: t("placed") }),
          lines.map((l) => h("div", { class: "place" },
            button("+", () => { change(l, 1); focusAfter = `more:${l}`; drawMove(); }, { key: `more:${l}`, class: "more",
              "aria-label": t("more", { place: placeName(l) }) }),
            h("span", { class: "place-name" }, `${placeName(l)}: `, h("output", { text: String(counted(l)), "data-place": String(l) })),
            button("−", () => { change(l, -1); focusAfter = `fewer:${l}`; drawMove(); }, { key: `fewer:${l}`, class: "fewer",
              "aria-label": t("fewer", { place: placeName(l) }), disabled: counted(l) === 0 })))));
        parts.push(labelled(t("taken"), h("input", { type: "number", min: "0", max: "100", key: "taken", value: String(move.taken),
          inputmode: "numeric", onchange: (e) => {
            move.taken = Math.max(0, parseInt(e.target.value, 10) || 0);
            move.takenEdited = true;
            document.getElementById("move-summary").textContent = summary();
          } })));
      }
    } else if (move.kind === "place") {
      parts.push(h("fieldset", { class: "choices", "data-group": "pline" }, h("legend", { text: t("lines") }),
        [0, 1, 2, 3, 4].map((l) => choice("pline", l, t("line", { n: l + 1 }), move.line, () => { move.line = l; }))));
      parts.push(h("fieldset", { class: "choices", "data-group": "column" }, h("legend", { text: t("wall") }),
        [0, 1, 2, 3, 4].map((c) => choice("column", c, t("column", { n: c + 1 }), move.column, () => { move.column = c; }))));
    } else {
      parts.push(labelled(t("typed"), h("input", { type: "text", key: "typed", value: move.text, autocomplete: "off", spellcheck: "false",
        oninput: (e) => { move.text = e.target.value; document.getElementById("move-summary").textContent = summary(); } })));
    }
    parts.push(h("p", { id: "move-summary", class: "summary", text: summary() }));
    parts.push(h("div", { class: "actions" },
      button(t("askButton"), ask, { key: "ask-button", id: "ask-button", class: "primary" }),
      button(t("play"), play, { key: "play-button", id: "play-button" }),
      button(t("legalList"), showLegal, { key: "legal-button", id: "legal-button" })));
    parts.push(h("div", { id: "legal-moves" }));
    return parts;
  });

  const summary = () => {
    const m = currentMove();
    return m ? t("moveSays", { text: moveWords(m) }) : t("incomplete", { what: missing() });
  };

  const call = async (path, body) => {
    try { return await api(path, body); } catch (error) {
      showVerdict(h("p", { class: "bad", text: t("unreachable", { why: String(error.message ?? error) }) }));
      return null;
    }
  };

  const ask = async () => {
    const m = currentMove();
    if (m === null) { showVerdict(h("p", { class: "note", text: summary() })); return; }
    const request = { state: positionDocument(), move: m };
    if (bagIsRest && !COLORS.some((c) => pos.lid[c])) {
      // what nobody at the table sees is left to the judge, which says what it filled in
      delete request.state.bag;
      delete request.state.lid;
      request.infer_unseen = true;
    }
    const reply = await call("check", { ...request, lang });
    if (!reply) return;
    verdictOf = { kind: "check", request, reply };
    answerWanted = true;
    drawVerdict();
    bringIntoView();
  };
  // The answer is seen where it is given: scrolled to when it is above or below the screen.
  // The picture drawn after the answer may move it: it is brought into view again then.
  let answerWanted = false;
  const bringIntoView = () => {
    const answer = document.getElementById("answer");
    const box = document.getElementById("verdict").getBoundingClientRect();
    const whole = answer.getBoundingClientRect();
    if (box.top >= -1 && box.bottom <= window.innerHeight + 1) return;
    // the answer's heading too when it all fits, else the verdict's top at the top
    if (whole.height <= window.innerHeight) answer.scrollIntoView({ block: box.top < 0 ? "start" : "end" });
    else document.getElementById("verdict").scrollIntoView({ block: "start" });
  };

  const play = async () => {
    const m = currentMove();
    if (m === null) { showVerdict(h("p", { class: "note", text: summary() })); return; }
    const request = { state: positionDocument(), move: m };
    const reply = await call("apply", { ...request, lang });
    if (!reply) return;
    if (reply.status === 200) {
      record = null;
      adopt(reply.data.state, bagIsRest);
      lastPlayed = { move: reply.data.move, player: reply.data.move.player ?? request.state.current_player };
      Object.assign(move, { source: null, color: null, line: null, counts: {}, taken: 0, takenEdited: false, column: null, text: "" });
      drawAll();
    }
    verdictOf = { kind: "apply", request, reply };
    drawVerdict();
  };

  const showLegal = async () => {
    const reply = await call("legal-moves", { state: positionDocument(), lang });
    if (!reply) return;
    const box = document.getElementById("legal-moves");
    if (reply.status !== 200) { showProblem(reply); box.replaceChildren(); return; }
    const moves = reply.data.moves;
    if (!moves.length) {
      const what = pos.phase === "game_over" ? t("overWait") : pos.phase === "refill" ? t("refillWait") : t("whyTurn", { p: pos.current_player + 1 });
      box.replaceChildren(h("p", { class: "note", text: t("noLegal", { what }) }));
      return;
    }
    box.replaceChildren(h("p", { text: t("legalTitle", { n: moves.length }) }),
      h("div", { class: "legal-list", "data-group": "legal" }, moves.map((entry, i) => button(entry.notation ?? moveWords(entry.move), () => {
        move.kind = "text"; move.text = entry.notation ?? JSON.stringify(entry.move); focusAfter = "ask-button"; drawMove();
      }, { key: `legal:${i}`, class: "legal-move" }))));
  };

  // -- answers -----------------------------------------------------------------------------
  const showVerdict = (...nodes) => { document.getElementById("verdict").replaceChildren(...nodes.flat().filter(Boolean)); };
  const say = (text) => showVerdict(h("p", { class: "note", text }));

  const violationCard = (v) => h("article", { class: "violation" },
    h("p", { class: "code", text: v.code }),
    h("p", { class: "message", text: v.message }),
    h("p", { class: "rule", text: t("rule", { id: v.rule, title: v.rule_title }) }),
    h("blockquote", { class: "rule-text", text: v.rule_text }));

  const problemList = (errors) => h("ul", { class: "problems" }, errors.map((e) => h("li", {},
    e.code ? h("span", { class: "code", text: e.code }) : null, e.code ? " " : null,
    e.rule ? h("span", { class: "rule", text: `(${e.rule}${e.rule_title ? ` ${e.rule_title}` : ""}) ` }) : null,
    h("code", { class: "path", text: e.path }), `: ${e.problem ?? e.message}`,
    e.rule_text ? h("blockquote", { class: "rule-text", text: e.rule_text }) : null)));

  // 400, 413, 415 or 422: the problem details in words.
  const problemNode = (reply) => {
    const data = reply.data ?? {};
    const nodes = [h("p", { class: "bad heading", text: data.title ?? `HTTP ${reply.status}` })];
    if (data.detail && !data.errors) nodes.push(h("p", { text: data.detail }));
    if (data.errors) nodes.push(problemList(data.errors));
    return h("div", { class: `problem status-${reply.status}` }, nodes);
  };
  const showProblem = (reply) => showVerdict(problemNode(reply));

  const drawVerdict = () => {
    if (!verdictOf) return;
    const { kind, reply } = verdictOf;
    if (kind === "check" || kind === "apply") {
      const data = reply.data;
      if (reply.status === 200 && kind === "check") {
        showVerdict(h("p", { class: data.ok ? "good heading" : "bad heading", text: data.ok ? t("legal") : t("illegal") }),
          h("p", { class: "summary", text: t("moveSays", { text: moveWords(data.move) }) }),
          data.ok ? effectNode(data.effect, data.move) : null,
          data.ok ? button(t("play"), play, { key: "verdict-play", id: "verdict-play", class: "primary" }) : null,
          data.violations.map(violationCard), inferredNode(data.inferred));
      } else if (reply.status === 200) {
        showVerdict(h("p", { class: "good heading", text: `${t("played")}${tilingWords(data)}` }),
          h("p", { class: "last-move-words", text: t("lastMove", { m: data.notation ?? moveWords(data.move) }) }));
      } else if (reply.status === 422 && data.violations) {
        showVerdict(h("p", { class: "bad heading", text: t("illegal") }), data.violations.map(violationCard));
      } else showProblem(reply);
      schedulePicture(kind === "check" && reply.status === 200 ? data.notation ?? verdictOf.request.move : null,
        kind === "apply" && reply.status === 200 && reply.data.round_ended);
    } else if (kind === "audit") {
      if (reply.status === 200) {
        showVerdict(h("p", { class: reply.data.correct ? "good heading" : "bad heading", text: reply.data.correct ? t("correct") : t("wrong") }),
          reply.data.violations.map(violationCard));
        schedulePicture(null, false, verdictOf.request.claim);
      } else showProblem(reply);
    }
  };

  // The parts of the table the judge filled in (the bag, the lid: every tile not on the table).
  const inferredNode = (parts) => (parts?.length ? h("p", { class: "note inferred", id: "inferred",
    text: t("inferredSaid", { parts: parts.map((part) => (part === "bag" ? t("bag") : part === "lid" ? t("lid") : t("markerTaken"))).join(", ") }) }) : null);

  // What a legal move does, before it is played (the check answer's "effect"): the
  // tiles to the line and to the floor, what those cost now (F1), the marker (T3); a
  // grey-wall placement's points (W3).
  const effectNode = (effect, m) => {
    if (!effect) return null;
    const parts = [];
    if (effect.to_line) parts.push(t("effectLine", { n: effect.to_line, line: typeof m.line === "number" ? m.line + 1 : "" }));
    if (effect.to_floor) parts.push(t("effectFloor", { n: effect.to_floor, points: `−${Math.abs(effect.floor_penalty ?? 0)}` }));
    if (effect.marker) parts.push(t("effectMarker"));
    if (effect.points !== undefined && effect.points !== null) parts.push(t("effectPoints", { points: effect.points }));
    if (!parts.length) return null;
    return h("div", { class: "effect", id: "effect" }, h("p", { class: "effect-head", text: t("effectTitle") }),
      h("ul", {}, parts.map((text) => h("li", { text }))));
  };

  const tilingWords = (data) => {
    let text = "";
    if (data.round_ended && data.last_scoring) {
      const s = data.last_scoring;
      text += t("roundEnded", { r: s.round }) + s.players.map((p) => t("scoreLine", { p: p.player + 1, before: p.score_before, after: p.score_after })).join(", ") + ". ";
    }
    if (data.outcome) text += t("gameOver", { w: data.outcome.winners.map((w) => t("player", { p: w + 1 })).join(", ") });
    return text;
  };

  // -- the picture -------------------------------------------------------------------------
  let pictureTimer = null;
  let pictureAsked = 0;
  const schedulePicture = (highlight = null, tiling = false, claim = null) => {
    clearTimeout(pictureTimer);
    document.getElementById("picture").dataset.pending = "true";   // for tests: a picture is on its way
    pictureTimer = setTimeout(() => drawPicture(highlight, tiling, claim), highlight || claim ? 0 : 250);
  };
  // The picture's arrangement (docs/pictures.md): "narrow" -- one column, larger tiles --
  // where the page is one column and the picture's area narrower than the wide picture
  // needs for 24 px targets and 12 px words (720 px); "wide" on a wide screen, where the
  // picture beside the answer fits the screen's height.
  const pictureLayout = () => {
    const figure = document.getElementById("picture");
    const oneColumn = !window.matchMedia("(min-width: 64rem)").matches;
    return oneColumn && figure.clientWidth < NARROW_BELOW ? "narrow" : "wide";
  };
  // A window resized (a phone turned) across that width: the picture drawn again.
  let pictureWith = [null, false, null];
  window.addEventListener("resize", () => {
    const figure = document.getElementById("picture");
    if (figure?.dataset.layout && figure.dataset.layout !== pictureLayout()) drawPicture(...pictureWith);
  });
  // The picture (with the move asked about, the tiling just done, or the audit of a
  // claim), the link to it, and why the table cannot exist when it cannot (a table
  // being built is drawn as it is, its problems beside it).
  const drawPicture = async (highlight, tiling, claim) => {
    const asked = ++pictureAsked;
    pictureWith = [highlight, tiling, claim];
    const state = positionDocument();
    const layout = pictureLayout();
    const body = { state, lang, layout };
    if (highlight) body.move = highlight;
    else if (tiling && pos.last_scoring) body.tiling = true;
    else if (claim) body.claim = claim;
    let replies;
    try {
      replies = await Promise.all([api("render", body), api("position", { state }), api("problems", { state })]);
    } catch { return; }
    if (asked !== pictureAsked) return;   // a newer picture is on its way
    delete document.getElementById("picture").dataset.pending;
    const [picture, written, found] = replies;
    const problems = document.getElementById("problems");
    const figure = document.getElementById("picture");
    if (picture.svg) {
      const svg = new DOMParser().parseFromString(picture.svg, "image/svg+xml").documentElement;
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      svg.setAttribute("role", "img");
      const shown = document.importNode(svg, true);
      const box = shown.viewBox.baseVal;
      if (box && box.width) document.getElementById("table").style.setProperty("--aspect", String(box.height / box.width));
      figure.replaceChildren(shown);
      figure.dataset.layout = layout;
      if (!highlight && !tiling && !claim && lastPlayed) markLastMove(shown, lastPlayed);
      markPicked(shown);
      const blank = isBlank(state) && hooks.emptyPrompt;
      problems.replaceChildren(...(blank ? [hooks.emptyPrompt()] : impossibleNodes(found)));
    } else {
      // A table that cannot even be drawn as typed: the last picture stays, to be
      // edited, and the reasons are given beside it.
      problems.replaceChildren(problemNode(picture));
    }
    drawShare(written.status === 200 ? written.data.position : null, highlight);
    if (answerWanted) { answerWanted = false; bringIntoView(); }
  };
  // A table with nothing on it yet: the page offers ways to start rather than calling it
  // impossible.
  const isBlank = (doc) => doc.factories.every((f) => !f.length) && !doc.center.length
    && !COLORS.some((c) => doc.lid[c]) && doc.round === 1
    && doc.players.every((b) => !b.score && !b.floor.length && b.pattern_lines.every((l) => !l.length)
      && b.wall.every((row) => row.every((x) => !x)));

  // Why the table drawn cannot exist: under the picture, which stays to be edited.
  const impossibleNodes = (found) => {
    const listed = found.status === 200 ? found.data.problems ?? [] : [];
    if (!listed.length) return [];
    return [h("div", { class: "problem status-422", id: "impossible" },
      h("p", { class: "bad heading", text: t("impossible") }), problemList(listed))];
  };

  // The link to what the page shows: ?position=<notation>, and &move= when the picture
  // shows a move asked about.
  const drawShare = (notation, highlight) => {
    const link = document.getElementById("share");
    if (notation === null) {
      link.removeAttribute("href");
      link.setAttribute("aria-disabled", "true");
      link.textContent = t("noShare");
      return;
    }
    const query = new URLSearchParams({ position: notation });
    if (highlight) query.set("move", typeof highlight === "string" ? highlight : toJson(highlight));
    link.setAttribute("href", `?${query}`);
    link.removeAttribute("aria-disabled");
    link.textContent = highlight ? t("shareMove") : t("share");
  };

  // A frame drawn around a group of the picture, in the group's own coordinates.
  const frame = (group, cls) => {
    const box = group.getBBox();
    const rect = document.createElementNS(group.namespaceURI, "rect");
    for (const [name, value] of Object.entries({ x: box.x - 3, y: box.y - 3, width: box.width + 6, height: box.height + 6,
      rx: 4, fill: "none", class: cls })) rect.setAttribute(name, String(value));
    group.append(rect);
    group.classList.add(cls);
  };
  // The move just played: its source and where its tiles went (a take), or the wall
  // space filled (a grey-wall placement, V1).
  const markLastMove = (svg, { move: m, player }) => {
    const board = svg.querySelector(`.board[data-player="${player}"]`);
    const places = [];
    if (m.type === "take" || m.type === "table_take") {
      places.push(m.source === "center" ? svg.querySelector(".center") : svg.querySelector(`.factory[data-index="${m.source}"]`));
      const lines = m.type === "take" ? [m.line] : Object.keys(m.placements).map((k) => (k === "floor" ? k : Number(k)));
      for (const line of lines) places.push(line === "floor" ? board?.querySelector(".floor-line") : board?.querySelector(`.pattern-line[data-line="${line}"]`));
    } else if (m.type === "place_tile") {
      places.push(board?.querySelector(`.wall [data-row="${m.line}"][data-column="${m.column}"]`));
    }
    places.filter(Boolean).forEach((g) => frame(g, "last-move"));
  };
  // The tiles chosen by a first click on the picture, until the second.
  const markPicked = (svg) => {
    const laying = tool === "laid" && move.kind === "table";
    if (!laying && (tool !== "ask" || move.kind !== "take" || move.line !== null)) return;
    if (move.source === null || move.color === null) return;
    const source = move.source === "center" ? svg.querySelector(".center") : svg.querySelector(`.factory[data-index="${move.source}"]`);
    source?.querySelectorAll(`.tile.${move.color}`).forEach((tile) => tile.classList.add("picked"));
  };

  // -- the picture is the board -------------------------------------------------------------
  // What a click on the picture hit: a tile's colour, a source, a board, a line, a wall space.
  const hit = (target) => {
    const tile = target.closest(".tile, .marker");
    const factory = target.closest(".factory[data-index]");
    const board = target.closest(".board[data-player]");
    const line = target.closest(".pattern-line[data-line]");
    const space = target.closest(".wall [data-row][data-column]");
    return {
      color: tile ? COLORS.find((c) => tile.classList.contains(c)) ?? (tile.classList.contains("marker") ? "marker" : null) : null,
      source: factory ? Number(factory.dataset.index) : target.closest(".center") ? "center" : null,
      player: board ? Number(board.dataset.player) : null,
      line: line ? Number(line.dataset.line) : target.closest(".floor-line") ? "floor" : null,
      space: space ? [Number(space.dataset.row), Number(space.dataset.column)] : null,
    };
  };
  const onPicture = (event) => {
    if (!(event.target instanceof Element) || !event.target.closest("svg")) return;
    const where = hit(event.target);
    if (tool === "edit") editOnPicture(where);
    else askOnPicture(where);
  };
  // "Ask": a tile of a source, then a line or the floor of a board: that take is asked
  // about (T1, T2); a wall space in the grey tiling: that placement (V1).
  const askOnPicture = ({ color, source, player, line, space }) => {
    const who = player === null || player === pos.current_player ? "" : String(player);
    if (tool === "laid") {
      if (source !== null && COLORS.includes(color)) {
        Object.assign(move, { kind: "table", source, color, line: null, counts: {}, taken: 0, takenEdited: false, who: "" });
      } else if (line !== null && move.source !== null && move.color !== null) {
        move.kind = "table";
        move.who = who;
        move.counts[String(line)] = (move.counts[String(line)] ?? 0) + 1;
        if (!move.takenEdited) move.taken = Object.values(move.counts).reduce((a, b) => a + b, 0);
      } else return;
      drawMove();
      drawTools();
      const svg = document.querySelector("#picture svg");
      if (svg) markPicked(svg);
      return;
    }
    if (source !== null && COLORS.includes(color)) {
      Object.assign(move, { kind: "take", source, color, line: null });
      drawMove();
      drawTools();
      const svg = document.querySelector("#picture svg");
      if (svg) markPicked(svg);
      return;
    }
    if (line !== null && move.kind === "take" && move.source !== null && move.color !== null) {
      Object.assign(move, { line, who });
      drawMove();
      drawTools();
      ask();
    } else if (space !== null && pos.variant === "grey" && pos.phase === "wall_tiling") {
      Object.assign(move, { kind: "place", line: space[0], column: space[1], who });
      drawMove();
      ask();
    }
  };
  // "Edit": a tile clicked is taken away; a place clicked beside its tiles gets the
  // chosen tile (the editor's brush); a wall space is filled or emptied.
  const editOnPicture = ({ color, source, player, line, space }) => {
    const board = player === null ? null : pos.players[player];
    if (board && space) {
      const [r, c] = space;
      edit(() => {
        if (board.wall[r][c]) board.wall[r][c] = null;
        else if (pos.variant !== "grey") board.wall[r][c] = wallColor(r, c);
        else if (brush !== "marker") board.wall[r][c] = brush;
      });
      return;
    }
    const tiles = source === "center" ? pos.center : source !== null ? pos.factories[source]
      : board && line === "floor" ? board.floor : board && line !== null ? board.pattern_lines[line] : null;
    if (!tiles) return;
    if (color === "marker") { edit(() => { if (board) board.floor = board.floor.filter((x) => x !== "marker"); pos.marker_holder = null; }); return; }
    if (color) {
      if (tiles.includes(color)) edit(() => { tiles.splice(tiles.lastIndexOf(color), 1); });
      return;
    }
    const limit = source === "center" ? Infinity : source !== null ? 4 : line === "floor" ? FLOOR_SIZE : line + 1;
    const markerOk = source === "center" || line === "floor";
    if (tiles.length >= limit || (brush === "marker" && !markerOk)) return;
    edit(() => {
      if (brush !== "marker") { tiles.push(brush); return; }
      pos.players.forEach((b) => { b.floor = b.floor.filter((x) => x !== "marker"); });
      if (board) { board.floor.push("marker"); pos.marker_holder = player; } else pos.marker_holder = null;
    });
  };

  // The choice of what a click on the picture does, and what to click next.
  const drawTools = () => redraw(document.getElementById("tools"), () => {
    const c = move.color;   // one of COLORS
    const help = tool === "ask" && move.kind === "take" && move.source !== null && c !== null && move.line === null
      ? t("pickTarget", { from: move.source === "center" ? t("centre") : t("factory", { n: move.source + 1 }), color: t(c) })
      : t("pictureHelp");
    const toolButton = (name, label) => button(label, () => { setTool(name); focusAfter = `tool:${name}`; drawTools(); schedulePicture(); },
      { key: `tool:${name}`, "aria-pressed": pressed(tool === name), class: "choice" });
    const laid = tool === "laid" ? laidHelp() : null;
    return [h("div", { class: "tool-row", role: "group", "aria-label": t("tools") },
      h("span", { class: "tool-label", text: t("tools") }),
      toolButton("ask", t("toolAsk")), toolButton("laid", t("toolLaid")), toolButton("edit", t("toolEdit")),
      tool === "edit" && !hooks.quick?.() ? brushChoices("pbrush") : null),
    tool === "ask" && !hooks.quick?.() ? h("p", { class: "note picture-help", id: "picture-help", text: help }) : null, laid].filter(Boolean);
  });
  // "As laid on the table", on the picture: a tile of a source, then one tap on a line
  // or a floor per tile laid there, then the judge is asked (the count taken follows).
  const setTool = (name) => {
    tool = name;
    if (name === "laid") Object.assign(move, { kind: "table", line: null, counts: {}, taken: 0, takenEdited: false });
    else if (name === "ask" && move.kind === "table") Object.assign(move, { kind: "take", line: null });
    drawMove();
  };
  const laidHelp = () => {
    const chosen = move.kind === "table" && move.source !== null && move.color !== null;
    const m = chosen ? currentMove() : null;
    return h("div", { class: "laid-help", id: "laid-help" },
      h("p", { class: "note picture-help", text: !chosen ? t("laidPick") : m ? t("moveSays", { text: moveWords(m) }) : t("laidLines") }),
      chosen ? button(t("askButton"), ask, { key: "laid-ask", id: "laid-ask", class: "primary", disabled: !m }) : null);
  };

  // -- auditing claimed scores -------------------------------------------------------------
  let claimed = [];
  let emptied = [];           // per player, the incomplete lines the players emptied (W2)
  let gameSaid = "";          // what the players say of the game: "" (nothing), "on", "over" (E1)
  const drawAudit = () => redraw(document.getElementById("audit-form"), () => {
    const players = pos.players.length;
    claimed = Array.from({ length: players }, (_, p) => claimed[p] ?? "");
    emptied = Array.from({ length: players }, (_, p) => (emptied[p] ?? []).filter((i) => {
      const n = pos.players[p].pattern_lines[i].length;
      return n > 0 && n < i + 1;
    }));
    const lineChoices = (board, p) => {
      const open = board.pattern_lines.map((l, i) => [l.length, i]).filter(([n, i]) => n > 0 && n < i + 1).map(([, i]) => i);
      if (!open.length) return null;
      return h("div", { class: "field emptied", role: "group", "aria-label": t("emptiedBy", { p: p + 1 }), "data-group": `emptied:${p}` },
        h("span", { class: "tool-label", text: t("emptiedBy", { p: p + 1 }) }),
        open.map((i) => button(t("line", { n: i + 1 }), () => {
          emptied[p] = emptied[p].includes(i) ? emptied[p].filter((x) => x !== i) : [...emptied[p], i];
          focusAfter = `emptied:${p}:${i}`;
          drawAudit();
        }, { key: `emptied:${p}:${i}`, class: "choice", "aria-pressed": pressed(emptied[p].includes(i)) })));
    };
    return [h("p", { class: "note", text: t("claimIntro") }),
      h("div", { class: "claims" }, claimed.map((value, p) => labelled(t("claimed", { p: p + 1 }),
        h("input", { type: "number", min: "0", max: "999", value: String(value), key: `claim:${p}`, inputmode: "numeric",
          oninput: (e) => { claimed[p] = e.target.value; } })))),
      ...pos.players.map(lineChoices).filter(Boolean),
      labelled(t("gameSaid"), select("game-said", [["", t("gameSaidNothing")], ["on", t("gameSaidOn")], ["over", t("gameSaidOver")]],
        gameSaid, (e) => { gameSaid = e.target.value; })),
      button(t("auditButton"), auditClaim, { key: "audit-button", id: "audit-button", class: "primary" })];
  });
  // The claim: the scores written, the lines the players emptied (the board's lines as
  // they left them: the complete ones emptied by the tiling, W1) and whether the game ends.
  const claimOf = () => {
    const claim = { scores: claimed.map((v) => (v === "" ? null : Number(v))) };
    if (emptied.some((lines) => lines.length)) {
      claim.boards = pos.players.map((b, p) => (emptied[p].length ? {
        pattern_lines: b.pattern_lines.map((l, i) => (l.length === i + 1 || emptied[p].includes(i) ? [] : l)),
      } : null));
    }
    if (gameSaid) claim.game_over = gameSaid === "over";
    return claim;
  };
  const auditClaim = async () => {
    const request = { state: positionDocument(), claim: claimOf() };
    const reply = await call("audit", { ...request, lang });
    if (!reply) return;
    verdictOf = { kind: "audit", request, reply };
    answerWanted = true;
    drawVerdict();
    bringIntoView();
  };

  // -- a recorded game ---------------------------------------------------------------------
  const openRecord = async (doc, at = 0) => {
    const reply = await call("replay", { record: doc, at, lang });
    if (!reply) return;
    if (reply.status !== 200) { showProblem(reply); return; }
    record = { doc, at: reply.data.at, reply: reply.data };
    adopt(reply.data.state, false);
    verdictOf = null;
    drawAll();
    showRecordVerdict();
    // The tiling a move just finished, else the next move (an illegal one with its verdict).
    const next = reply.data.moves[reply.data.at];
    if (reply.data.round_ended || !next) schedulePicture(null, reply.data.round_ended);
    else schedulePicture(next.move);
  };
  const showRecordVerdict = () => {
    const data = record.reply;
    const bad = data.illegal_move;
    const nodes = [h("p", { class: bad ? "bad heading" : "good heading", text: bad ? t("recordBad", { k: bad.number, p: bad.player + 1 }) : t("recordOk") })];
    if (bad) nodes.push(h("p", { class: "summary", text: t("moveSays", { text: bad.notation ?? moveWords(bad.move) }) }), bad.violations.map(violationCard));
    else if (data.outcome && data.at === data.total) nodes.push(h("p", { text: tilingWords({ outcome: data.outcome }) }));
    showVerdict(...nodes);
  };
  const drawRecord = () => redraw(document.getElementById("record-view"), () => {
    if (!record) return [h("p", { class: "note", text: t("recordIntro") })];
    const data = record.reply;
    const next = data.moves[data.at];
    const nextText = next ? t("nextMove", { m: next.notation ?? moveWords(next.move) }) : "";
    const step = (label, at, key) => button(label, () => { focusAfter = key; openRecord(record.doc, at); },
      { key, id: key, disabled: at === data.at || at < 0 || at > data.legal });
    return [h("p", { class: "step", id: "record-step" },
      data.at === 0 ? `${t("stepAt", { k: 0, n: data.total })} (${t("atStart")})` : t("stepAt", { k: data.at, n: data.total }),
      nextText ? ` — ${nextText}` : ""),
    h("div", { class: "actions", "data-group": "steps" },
      step(t("first"), 0, "record-first"), step(t("back"), data.at - 1, "record-back"),
      step(t("next"), data.at + 1, "record-next"),
      step(t("last"), data.legal, "record-last")),
    h("ol", { class: "record-moves" }, data.moves.slice(0, 500).map((m, i) => h("li", { class: i < data.at ? "done" : i === data.at ? "current" : "" },
      h("span", { class: "number", text: `${i + 1}.` }), " ", m.notation ?? moveWords(m.move))))];
  });

  // -- JSON in and out ---------------------------------------------------------------------
  const drawJson = () => redraw(document.getElementById("json-view"), () => {
    const area = h("textarea", { id: "json-text", key: "json-text", rows: "12", spellcheck: "false", autocomplete: "off" });
    area.value = toJson(positionDocument(), 1);
    return [labelled(t("jsonLabel"), area), h("div", { class: "actions" },
      button(t("jsonLoad"), () => openText(area.value), { key: "json-load", id: "json-load" }),
      button(t("download"), () => {
        const blob = new Blob([toJson(positionDocument(), 2)], { type: "application/json" });
        const link = h("a", { href: URL.createObjectURL(blob), download: "position.json" });
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 1000);
      }, { key: "json-download" }))];
  });

  // Whether two bags hold the same tiles (an empty count and a missing one alike).
  const sameBag = (one, other) => COLORS.every((c) => (one[c] ?? 0) === (other[c] ?? 0));

  // -- links that carry the table ----------------------------------------------------------
  // /?position=<notation> opens that position; &move=<notation or JSON> asks about the move.
  const openLink = async (query = new URLSearchParams(window.location.search), heading = "linkBad") => {
    const given = query.get("position");
    const asked = query.get("move");
    if (given !== null) {
      const reply = await call("position", { state: given });
      if (!reply) return;
      if (reply.status !== 200) {
        showVerdict(h("p", { class: "bad heading", text: heading === "pasteBad" ? t("pasteBad") : t("linkBad") }), problemNode(reply));
        return;
      }
      record = null;
      adopt(reply.data.state, false);
      bagIsRest = sameBag(pos.bag, restOfBag()) && !COLORS.some((c) => pos.lid[c]);
      lastPlayed = null;
      verdictOf = null;
      drawAll();
      if (heading === "pasteBad") say(t("loaded", { what: t("aPosition") }));
    }
    if (asked !== null && asked.trim()) {
      Object.assign(move, { kind: "text", text: asked });
      drawMove();
      await ask();
    }
  };

  // -- language ----------------------------------------------------------------------------
  const tagOf = (code) => code.replace("_", "-");    // pt_BR is pt-BR to the browser
  // The catalogue for a language the browser names ("fr-CA": fr), the same tag first.
  const catalogueFor = (wanted) => {
    const asked = String(wanted ?? "").replace("_", "-").toLowerCase();
    return LANGUAGES.find((code) => tagOf(code).toLowerCase() === asked)
      ?? LANGUAGES.find((code) => code.split("_")[0].toLowerCase() === asked.split("-")[0]);
  };
  // The saved choice if it still exists, else the browser's first language we have, else English.
  const firstLanguage = () => {
    let saved = null;
    try { saved = localStorage.getItem("azul-judge-lang"); } catch { /* private browsing */ }
    if (saved !== null && LANGUAGES.includes(saved)) return saved;
    const wanted = navigator.languages?.length ? navigator.languages : [navigator.language];
    return wanted.map(catalogueFor).find(Boolean) ?? SOURCE;
  };
  const languageButtons = () => document.querySelectorAll(".lang button[data-lang]");

  const setLanguage = (next) => {
    lang = next;
    document.documentElement.lang = tagOf(next);
    languageButtons().forEach((b) => b.setAttribute("aria-pressed", pressed(b.dataset.lang === next)));
    document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
    document.title = t("title");
    document.getElementById("rules-link").setAttribute("href", `api/v1/rules?lang=${next}`);
    try { localStorage.setItem("azul-judge-lang", next); } catch { /* private browsing */ }
    drawAll();
    if (verdictOf) {            // ask again: the answer is in the other language now
      const { kind, request } = verdictOf;
      const path = kind === "audit" ? "audit" : kind === "check" ? "check" : null;
      if (path) call(path, { ...request, lang }).then((reply) => { if (reply) { verdictOf = { kind, request, reply }; drawVerdict(); } });
    } else if (record) openRecord(record.doc, record.at);
  };

  const drawAll = () => {
    hooks.draw?.();
    drawTools(); drawFiles(); drawEditor(); drawMove(); drawAudit(); drawRecord(); drawJson();
    focusAfter = null;
    schedulePicture();
  };

  // -- what static/table.js (a dealt table, one board and one lot, the paste box) uses ------
  Object.assign(hooks, {
    t, h, button, call, COLORS, glyph, FACTORIES,
    lang: () => lang,
    pos: () => pos,
    blankPosition,
    // a position read back from the server becomes the table (the bag "every other tile" when rest)
    load: (doc, rest = false) => {
      record = null; adopt(doc, rest); lastPlayed = null; verdictOf = null;
      Object.assign(move, { source: null, color: null, line: null, counts: {}, taken: 0, takenEdited: false, column: null, text: "" });
      drawAll();
    },
    change: (fn) => edit(fn),
    tool: (name) => { setTool(name); drawTools(); schedulePicture(); },
    currentTool: () => tool,
    brush: (c) => { brush = c; },
    move: (partial) => { Object.assign(move, partial); drawMove(); drawTools(); },
    say, showProblem, problemNode, showVerdict, openText,
    openLink: (query, heading) => openLink(query, heading),
  });

  document.addEventListener("DOMContentLoaded", () => {
    languageButtons().forEach((b) => b.addEventListener("click", () => setLanguage(b.dataset.lang)));
    document.getElementById("picture").addEventListener("click", onPicture);
    setLanguage(firstLanguage());
    openLink().finally(() => { document.body.dataset.ready = "true"; });
  });
})();
