// Play a whole game at the judge's page: against the built-in bots or hot-seat, every
// move refereed by the API (api/v1/new-game, legal-moves, apply, bot, render, record).
// Plain JavaScript, no build step; the page keeps nothing but the game's settings and
// its moves, and each position travels as its notation (docs/notation.md), so that a
// 64-bit generator state never passes through a JavaScript number.
// Its words are the catalogues' web.play.* phrases, in the data block #play-words.
"use strict";

(() => {
  const COLORS = ["blue", "yellow", "red", "black", "white"];
  const SEATS = ["person", "greedy", "random"];
  const MAX_SEED = 2 ** 53 - 1;
  const BOT_PAUSE_MS = 350;
  const NARROW_BELOW = 720;   // px: a picture's area narrower than this gets the narrow picture

  const WORDS = JSON.parse(document.getElementById("play-words").textContent);
  const SOURCE = "en";
  let lang = SOURCE;
  const t = (key, params = {}) => {
    const text = WORDS[lang]?.[key] ?? WORDS[SOURCE]?.[key] ?? key;
    return text.replace(/\{\{|\}\}|\{(\w+)\}/g, (whole, name) => (name === undefined ? whole[0] : String(params[name] ?? "")));
  };

  // -- the model ---------------------------------------------------------------------------
  const setup = { players: 2, variant: "colored", seed: "", seats: ["person", "greedy", "greedy", "greedy"] };
  // The game: its settings, its moves and the notation of every position reached.
  let game = null;
  let busy = false;           // a request is under way: no second move meanwhile
  let focusAfter = null;

  const toMove = () => game.state.current_player;
  const seatOf = (p) => game.seats[p];
  const isOver = () => game.state.phase === "game_over";
  const humanTurn = () => game && !isOver() && seatOf(toMove()) === "person";

  // -- talking to the judge ----------------------------------------------------------------
  const api = async (path, body) => {
    const response = await fetch(`api/v1/${path}?lang=${lang}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...body, lang }),
    });
    const type = response.headers.get("Content-Type") ?? "";
    if (type.startsWith("image/svg+xml")) return { status: response.status, svg: await response.text() };
    return { status: response.status, data: await response.json() };
  };

  // -- building the panel ------------------------------------------------------------------
  // The element builder, shared with the other scripts (static/dom.js, loaded first).
  const { h, button } = window.azulDom;
  let uid = 0;
  const labelled = (label, control) => {
    control.id = control.id || `play-field-${++uid}`;
    return h("div", { class: "field" }, h("label", { for: control.id, text: label }), control);
  };
  const select = (key, options, current, onchange) => h("select", { key, onchange },
    options.map(([value, label]) => h("option", { value: String(value), selected: String(value) === String(current) }, label)));
  // A tile's glyph, the pictures' shape of its colour (static/glyphs.js, loaded first).
  const { glyph } = window.azulGlyphs;

  const panel = () => document.getElementById("play");
  const draw = () => {
    const root = panel();
    const active = document.activeElement;
    const held = root.contains(active) ? active?.dataset?.key : null;
    root.replaceChildren(h("h2", { id: "play-title", text: t("title") }), setupPart(), game ? gamePart() : "");
    for (const key of [focusAfter, held]) {
      const target = key ? root.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
      if (target && !target.disabled) { target.focus(); break; }
    }
    focusAfter = null;
  };

  const setupPart = () => {
    const seed = h("input", { type: "text", key: "play-seed", id: "play-seed", inputmode: "numeric", autocomplete: "off",
      value: setup.seed, placeholder: t("seedRandom"), pattern: "[0-9]*",
      oninput: (e) => { setup.seed = e.target.value.trim(); } });
    const seats = Array.from({ length: setup.players }, (_, p) => labelled(t("seat", { p: p + 1 }),
      select(`play-seat-${p}`, SEATS.map((s) => [s, t(s)]), setup.seats[p], (e) => { setup.seats[p] = e.target.value; })));
    return h("fieldset", { class: "play-setup" }, h("legend", { text: t("setup") }),
      labelled(t("players"), select("play-players", [[2, "2"], [3, "3"], [4, "4"]], setup.players,
        (e) => { setup.players = parseInt(e.target.value, 10); focusAfter = "play-players"; draw(); })),
      labelled(t("wall"), select("play-variant", [["colored", t("colored")], ["grey", t("grey")]], setup.variant,
        (e) => { setup.variant = e.target.value; })),
      labelled(t("seed"), seed), ...seats,
      h("div", { class: "actions" }, button(t("start"), startGame, { key: "play-new", id: "play-new", class: "primary" })));
  };

  // -- the game ----------------------------------------------------------------------------
  const seedOf = () => {
    if (/^[0-9]{1,16}$/.test(setup.seed) && Number(setup.seed) <= MAX_SEED) return Number(setup.seed);
    const words = crypto.getRandomValues(new Uint32Array(2));
    return (words[0] % 2 ** 21) * 2 ** 32 + words[1];
  };

  const startGame = async () => {
    if (busy) return;
    busy = true;
    const reply = await call("new-game", { players: setup.players, seed: seedOf(), variant: setup.variant });
    busy = false;
    if (!reply) return;
    if (reply.status !== 200) { showProblem(reply); return; }
    const d = reply.data;
    game = { players: d.players, seed: d.seed, variant: d.variant, seats: setup.seats.slice(0, d.players),
      moves: [], written: [], positions: [d.position], state: d.state, position: d.position, legal: [],
      picked: null, last: null, said: null, verdict: null, outcome: null };
    focusAfter = "play-new";
    picture = null;
    await turn();
  };

  // After every position: the legal moves of a person to move, or a bot's move.
  const turn = async () => {
    game.picked = null;
    if (isOver()) { game.legal = []; draw(); drawPicture(); return; }
    if (seatOf(toMove()) === "person") {
      const reply = await call("legal-moves", { state: game.position });
      game.legal = reply?.status === 200 ? reply.data.moves : [];
      // The keyboard's place after a move (the button pressed is gone): the first choice.
      const lost = document.activeElement === document.body || panel().contains(document.activeElement);
      if (game.moves.length && lost && focusAfter === null) focusAfter = firstChoice();
      draw(); drawPicture();
      return;
    }
    game.legal = [];
    draw(); drawPicture();
    const mine = game;
    setTimeout(() => { if (game === mine) botMove(); }, BOT_PAUSE_MS);
  };

  const botMove = async () => {
    const seat = toMove();
    const reply = await call("bot", { state: game.position, bot: seatOf(seat), seed: botSeed(seat) });
    if (!reply) return;
    if (reply.status !== 200) { showProblem(reply); return; }
    await play(reply.data.move);
  };
  // A random bot's seed: one per game, seat and move, so that a game replays the same.
  const botSeed = (seat) => (game.seed + 7919 * (game.moves.length + 1) + 104729 * seat) % (MAX_SEED + 1);

  // Every move, a person's or a bot's, is refereed by the judge (apply).
  const play = async (move) => {
    if (busy) return;
    busy = true;
    const mine = game;
    const player = toMove();
    const reply = await call("apply", { state: game.position, move });
    busy = false;
    if (!reply || game !== mine) return;
    if (reply.status !== 200) { game.verdict = reply; draw(); return; }
    const d = reply.data;
    const position = d.position;
    game.moves.push(d.move);
    game.written.push(shortWords(d.move, d.notation));
    game.positions.push(position);
    game.position = position;
    game.state = d.state;
    game.last = { player, move: d.move, notation: d.notation };
    game.said = d.round_ended ? roundWords(d) : null;
    game.verdict = null;
    game.outcome = d.outcome;
    await turn();
  };

  const settings = () => ({ players: game.players, seed: game.seed, variant: game.variant });

  const call = async (path, body) => {
    try { return await api(path, body); } catch (error) {
      busy = false;
      say(t("unreachable", { why: String(error.message ?? error) }), "bad");
      return null;
    }
  };

  // -- words -------------------------------------------------------------------------------
  const sourceWord = (source) => (source === "center" ? t("centre") : t("factory", { n: source + 1 }));
  const targetWord = (line) => (line === "floor" ? t("floor") : t("line", { n: line + 1 }));
  const moveWords = (move) => {
    if (move.type === "take") return t("takeWords", { color: t(move.color), source: sourceWord(move.source), target: targetWord(move.line) });
    if (move.type === "place_tile") return t("placeWords", { n: move.line + 1, c: move.column + 1 });
    return JSON.stringify(move);
  };
  const lastWords = ({ player, move, notation }) => (notation
    ? t("lastMove", { p: player + 1, m: notation, words: moveWords(move) })
    : t("lastWords", { p: player + 1, words: moveWords(move) }));
  // A move as the list of moves shows it: its notation, or a placement in short.
  const shortWords = (move, notation) => notation
    ?? (move.type === "place_tile" ? t("placeShort", { n: move.line + 1, c: move.column + 1 }) : moveWords(move));
  const seatWord = (p) => t("seatIs", { p: p + 1, who: t(seatOf(p)) });
  const roundWords = (d) => {
    const s = d.last_scoring;
    if (!s) return null;
    return t("roundEnded", { r: s.round, scores: s.players.map((p) => t("scoreLine", { p: p.player + 1, before: p.score_before, after: p.score_after })).join(", ") });
  };
  const overWords = (outcome) => (outcome ? t("gameOver", {
    winners: outcome.winners.map((w) => t("player", { p: w + 1 })).join(", "),
    scores: outcome.scores.join(" – "),
  }) : "");

  const statusText = () => {
    if (isOver()) return overWords(game.outcome) || t("over");
    const round = game.state.round;
    if (game.state.phase === "wall_tiling") return t("tilingTurn", { r: round, who: seatWord(toMove()) });
    return t("turn", { r: round, who: seatWord(toMove()) });
  };

  // -- the game's parts --------------------------------------------------------------------
  // The picture on the left; beside it, whose turn, the last move, the choices, the links.
  const gamePart = () => h("div", { class: "play-game" },
    h("figure", { id: "play-table", class: "play-table", onclick: pictureClick }, picture ?? ""),
    h("div", { class: "play-side" },
      h("p", { id: "play-status", class: "play-status", role: "status", "aria-live": "polite", text: statusText() }),
      game.last ? h("p", { id: "play-last", class: "note", text: lastWords(game.last) }) : null,
      game.said ? h("p", { id: "play-said", class: "good", text: game.said }) : null,
      game.verdict ? verdictPart(game.verdict) : null,
      humanTurn() ? chooserPart() : null,
      h("div", { class: "actions" },
        h("a", { id: "play-link", href: `./?position=${game.position}`, text: t("link") }),
        button(t("download"), download, { key: "play-download", id: "play-download" })),
      movesPart()));

  const verdictPart = (reply) => {
    const d = reply.data ?? {};
    const items = (d.violations ?? []).map((v) => h("li", {}, h("span", { class: "code", text: v.code }), ` (${v.rule}) ${v.message}`));
    const errors = (d.errors ?? []).map((e) => h("li", {}, h("code", { text: e.path }), `: ${e.problem}`));
    return h("div", { id: "play-verdict", class: "play-verdict", role: "alert" },
      h("p", { class: "bad heading", text: d.violations ? t("illegal") : (d.title ?? `HTTP ${reply.status}`) }),
      h("ul", {}, items, errors));
  };

  // The takes a person may choose (each source and colour once), then the targets.
  const chooserPart = () => {
    const moves = game.legal.map((entry) => entry.move);
    const takes = [];
    for (const m of moves) {
      if (m.type === "take" && !takes.some((k) => k.source === m.source && k.color === m.color)) takes.push(m);
    }
    const parts = [];
    if (takes.length) {
      const sources = [...new Set(takes.map((k) => k.source))];
      parts.push(h("fieldset", { class: "play-takes", "data-group": "takes" }, h("legend", { text: t("chooseTake") }),
        sources.map((source) => h("span", { class: "play-source" }, h("span", { class: "play-source-name", "aria-hidden": "true",
          text: source === "center" ? t("centreShort") : String(source + 1) }), takes.filter((k) => k.source === source).map((k) => {
          const count = countOf(k.source, k.color);
          const picked = game.picked && game.picked.source === k.source && game.picked.color === k.color;
          const label = t("takeButton", { n: count, color: t(k.color), source: sourceWord(k.source) });
          return button([glyph(k.color), h("span", { class: "sr", text: label })], () => pick(k.source, k.color),
            { class: `tile ${k.color} play-take`, key: `play-take:${k.source}:${k.color}`, title: label,
              "aria-label": label, "aria-pressed": picked ? "true" : "false" });
        })))));
      if (game.picked) {
        const { source, color } = game.picked;
        parts.push(h("fieldset", { class: "play-targets", "data-group": "targets" },
          h("legend", { text: t("chooseTarget", { tiles: t("takeButton", { n: countOf(source, color), color: t(color), source: sourceWord(source) }) }) }),
          TARGETS.map((line) => button([targetWord(line), h("span", { class: "play-effect", text: effectWords(line) })],
            () => play({ type: "take", source, color, line }),
            { key: `play-target:${line}`, class: `play-target${game.picked.effects[line]?.ok === false ? " not-allowed" : ""}` }))));
      }
    }
    const places = moves.filter((m) => m.type === "place_tile");
    if (places.length) {
      parts.push(h("fieldset", { class: "play-places", "data-group": "places" }, h("legend", { text: t("choosePlace") }),
        places.map((m) => button(moveWords(m), () => play(m), { key: `play-place:${m.line}:${m.column}`, class: "play-place" }))));
    }
    const others = moves.filter((m) => m.type !== "take" && m.type !== "place_tile");
    if (others.length) {
      parts.push(h("div", { class: "actions" }, others.map((m, i) => button(moveWords(m), () => play(m), { key: `play-other:${i}` }))));
    }
    return h("div", { id: "play-chooser", class: "play-chooser" }, parts);
  };

  const firstChoice = () => {
    const move = game.legal[0]?.move;
    if (!move) return null;
    return move.type === "take" ? `play-take:${move.source}:${move.color}`
      : move.type === "place_tile" ? `play-place:${move.line}:${move.column}` : "play-other:0";
  };

  const countOf = (source, color) => {
    const tiles = source === "center" ? game.state.center : game.state.factories[source];
    return (tiles ?? []).filter((tile) => tile === color).length;
  };

  const TARGETS = [0, 1, 2, 3, 4, "floor"];
  // A take chosen: the judge says what it does on each line and on the floor (check's
  // effect), before it is played.
  const pick = async (source, color) => {
    game.picked = { source, color, effects: {} };
    game.verdict = null;
    focusAfter = "play-target:0";
    draw();
    markPicked();
    const picked = game.picked;
    const replies = await Promise.all(TARGETS.map((line) => call("check", { state: game.position, move: { type: "take", source, color, line } })));
    if (game?.picked !== picked) return;
    TARGETS.forEach((line, i) => { picked.effects[line] = replies[i]?.status === 200 ? replies[i].data : null; });
    draw();
    markPicked();
  };
  const effectWords = (line) => {
    const verdict = game.picked.effects[line];
    if (!verdict) return "";
    if (!verdict.ok) return t("notAllowed");
    const { to_line: placed, to_floor: fallen, floor_penalty: penalty, marker } = verdict.effect;
    const floor = fallen + (marker ? 1 : 0);
    const cost = `\u2212${penalty}`;
    if (!floor) return t("effect", { n: placed });
    return placed ? t("effectFloor", { n: placed, floor, penalty: cost }) : t("effectOnlyFloor", { floor, penalty: cost });
  };

  const movesPart = () => h("details", { class: "play-moves", open: true },
    h("summary", { text: t("moves", { n: game.moves.length }) }),
    h("ol", { id: "play-moves" }, h("li", { value: "0" }, h("a", { href: `./?position=${game.positions[0]}`, text: t("startPosition") })),
      game.written.map((text, i) => h("li", {}, h("a", { href: `./?position=${game.positions[i + 1]}`, text })))));

  // -- the picture -------------------------------------------------------------------------
  let asked = 0;
  let picture = null;         // the picture of the position shown, kept across redrawings
  const drawPicture = async () => {
    const mine = ++asked;
    let reply;
    const layout = pictureLayout();
    try { reply = await api("render", { state: game.position, layout }); } catch { return; }
    const figure = document.getElementById("play-table");
    if (mine !== asked || !figure || !reply.svg) return;
    const svg = new DOMParser().parseFromString(reply.svg, "image/svg+xml").documentElement;
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "img");
    picture = document.importNode(svg, true);
    picture.dataset.layout = layout;
    figure.replaceChildren(picture);
    markPicked();
  };

  // The picture's arrangement (docs/pictures.md): "narrow" -- one column, larger tiles,
  // 24 px targets and 12 px words -- where the picture's area is narrow (a phone).
  const pictureLayout = () => {
    const width = document.getElementById("play-table")?.clientWidth;
    return width && width < NARROW_BELOW ? "narrow" : "wide";
  };
  window.addEventListener("resize", () => {
    if (game && picture && picture.dataset.layout !== pictureLayout()) drawPicture();
  });

  const markPicked = () => {
    const figure = document.getElementById("play-table");
    if (!figure) return;
    figure.querySelectorAll(".picked").forEach((el) => el.classList.remove("picked"));
    figure.classList.toggle("choosing", humanTurn());
    if (!game.picked) return;
    const { source, color } = game.picked;
    const place = source === "center" ? figure.querySelector(".table .center") : figure.querySelector(`.table .factory[data-index="${source}"]`);
    place?.querySelectorAll(`.tile.${color}`).forEach((el) => el.classList.add("picked"));
    figure.querySelector(`.board[data-player="${toMove()}"]`)?.classList.add("picked");
  };

  // A click on the picture: a tile of a factory or the centre picks the take; then a
  // pattern line or the floor of the player to move plays it; a wall space of the grey
  // wall plays the placement of that row.
  const pictureClick = (event) => {
    if (!humanTurn() || busy) return;
    const target = event.target;
    const tile = target.closest?.(".tile");
    const source = target.closest?.(".table .factory, .table .center");
    if (tile && source) {
      const color = COLORS.find((c) => tile.classList.contains(c));
      const index = source.classList.contains("center") ? "center" : parseInt(source.dataset.index, 10);
      if (color) pick(index, color);
      return;
    }
    const board = target.closest?.(".board");
    if (!board || parseInt(board.dataset.player, 10) !== toMove()) return;
    const space = target.closest?.("[data-row][data-column]");
    if (game.state.phase === "wall_tiling" && space) {
      play({ type: "place_tile", line: parseInt(space.dataset.row, 10), column: parseInt(space.dataset.column, 10) });
      return;
    }
    if (!game.picked) return;
    const line = target.closest?.(".pattern-line");
    const floor = target.closest?.(".floor-line");
    if (line) play({ ...takeOf(), line: parseInt(line.dataset.line, 10) });
    else if (floor) play({ ...takeOf(), line: "floor" });
  };
  const takeOf = () => ({ type: "take", source: game.picked.source, color: game.picked.color });

  // -- the record --------------------------------------------------------------------------
  const download = async () => {
    const reply = await call("record", { ...settings(), moves: game.moves });
    if (!reply) return;
    if (reply.status !== 200) { showProblem(reply); return; }
    const blob = new Blob([reply.data.text], { type: "application/json" });
    const link = h("a", { href: URL.createObjectURL(blob), download: `azul-game-${game.seed}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  };

  // -- messages ----------------------------------------------------------------------------
  const say = (text, kind = "note") => {
    const root = panel();
    root.querySelector("#play-message")?.remove();
    root.append(h("p", { id: "play-message", class: kind, role: "alert", text }));
  };
  const showProblem = (reply) => {
    const d = reply.data ?? {};
    const errors = (d.errors ?? []).map((e) => `${e.path}: ${e.problem}`).join("; ");
    say(`${d.title ?? `HTTP ${reply.status}`}${errors ? ` — ${errors}` : d.detail ? ` — ${d.detail}` : ""}`, "bad");
  };

  // -- language ----------------------------------------------------------------------------
  // The page's language is <html lang> (the page's own buttons set it): followed here.
  const follow = () => {
    const tag = document.documentElement.lang.replace("-", "_");
    const next = WORDS[tag] ? tag : WORDS[tag.split("_")[0]] ? tag.split("_")[0] : SOURCE;
    if (next === lang && panel().childElementCount) return;
    lang = next;
    draw();
    if (game) drawPicture();
  };

  document.addEventListener("DOMContentLoaded", () => {
    if (!panel()) return;
    new MutationObserver(follow).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
    follow();
    panel().dataset.ready = "true";
  });
})();
