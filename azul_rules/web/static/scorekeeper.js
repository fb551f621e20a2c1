// The scorekeeper of a game played with the real box (docs/scorekeeper.md): each round the
// players click the wall spaces they laid and their floor lines, and may write the totals
// they counted; the judge (POST api/v1/scorekeeper) scores the round and names any wrong
// figure.  Nothing is scored here: the page only keeps the entries and shows the answers.
// A link (?sheet=<notation>) reopens the sheet at a round.  On the grey wall (V1-V5) a
// space laid also names its colour: click the space, then one of five colours.  A tile
// shows its colour's glyph, the picture's (static/glyphs.js, shared by the page), in every
// language; its label names the colour in the page's language.  At a phone's width the
// sheet is one card per player; each round's verdicts are read out (a polite live region).
"use strict";

(() => {
  const COLORS = ["blue", "yellow", "red", "black", "white"];
  const NARROW = "(max-width: 40rem)";   // a phone: the sheet as one card per player
  const PENALTIES = [1, 1, 2, 2, 2, 3, 3];
  const wallColor = (row, column) => COLORS[(column - row + 5) % 5];

  // -- words: the catalogues' web.scorekeeper.* keys, written into the page by the server --
  const WORDS = JSON.parse(document.getElementById("scorekeeper-words").textContent);
  const langOfPage = () => {
    const tag = (document.documentElement.lang || "en").toLowerCase();
    return Object.keys(WORDS).find((code) => code.replace("_", "-").toLowerCase() === tag) ?? "en";
  };
  const t = (key, params = {}) => {
    const lang = langOfPage();
    const text = WORDS[lang]?.[key] ?? WORDS.en?.[key] ?? key;
    return text.replace(/\{\{|\}\}|\{(\w+)(?::([^}]*))?\}/g, (whole, name, forms) => {
      if (name === undefined) return whole[0];
      if (forms === undefined) return String(params[name] ?? "");
      const [one, many] = forms.split("|");   // English and French: two forms
      const n = Number(params[name]);
      return (lang === "fr" ? n >= 2 : n !== 1) ? many : one;
    });
  };

  // -- the model ----------------------------------------------------------------------------
  const blankEntry = () => ({ placed: [], floor: 0, marker: false, written: null });
  let players = 2;
  let wall = "colored";         // the side of the boards: "colored" or "grey"
  let choosing = null;          // grey wall: the space clicked, waiting for its colour {p, r, c}
  let rounds = [];              // the rounds the judge has scored (the sheet's entries)
  let entries = [blankEntry(), blankEntry()];   // the round being entered
  let end = {};                 // what was written at the end
  let reply = null;             // the judge's last answer
  let refusal = null;           // the judge's last refusal (problem details)

  const sheet = (withCurrent) => ({
    format_version: 1, players, wall,
    rounds: withCurrent ? [...rounds, entries] : rounds,
    ...(Object.keys(end).length ? { end } : {}),
  });

  // The element builder, shared with the other scripts (static/dom.js, loaded first).
  const { h } = window.azulDom;
  // A tile's glyph, the pictures' shape of its colour (static/glyphs.js, loaded first).
  const { glyph } = window.azulGlyphs;
  const colorName = (color) => t(`color.${color}`);

  // The verdicts of the last round scored, read out by screen readers (aria-live).
  let live = null;
  const announce = (text) => {
    if (!live) {
      live = h("div", { class: "sr", "aria-live": "polite", role: "status", "data-sk": "live" });
      root()?.after(live);
    }
    live.textContent = text;
  };
  const announceRound = (answer) => {
    const round = answer.rounds[answer.rounds.length - 1];
    if (!round) return;
    const said = round.players.map((player, p) => t("announcePlayer", {
      n: p + 1, total: player.score_after,
      verdict: player.written === null ? "" : ` (${player.written} ${player.verdict === "wrong" ? "✗" : "✓"} ${player.verdict_text})`,
    }));
    announce(t("announce", { n: round.round, players: said.join(t("separator")) }));
  };

  // -- asking the judge -----------------------------------------------------------------------
  const ask = async (document_) => {
    const response = await fetch(`api/v1/scorekeeper?lang=${langOfPage()}`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sheet: document_, lang: langOfPage() }),
    });
    const body = await response.json();
    return response.ok ? { reply: body } : { refusal: body };
  };

  const settle = async (document_, onRight) => {
    const answer = await ask(document_);
    refusal = answer.refusal ?? null;
    if (answer.reply) {
      reply = answer.reply;
      onRight(answer.reply);
    }
    draw();
  };

  const scoreRound = () => settle(sheet(true), (r) => {
    rounds = r.sheet.rounds;
    announceRound(r);
    choosing = null;
    entries = Array.from({ length: players }, blankEntry);
  });

  const checkEnd = () => settle(sheet(false), () => {});

  const takeBack = () => {
    if (!rounds.length) return;
    entries = rounds[rounds.length - 1];
    rounds = rounds.slice(0, -1);
    end = {};
    choosing = null;
    if (!rounds.length) { reply = null; refusal = null; draw(); return; }
    settle(sheet(false), () => {});
  };

  const newSheet = (count) => {
    players = count; rounds = []; end = {}; reply = null; refusal = null; choosing = null;
    entries = Array.from({ length: players }, blankEntry);
    draw();
  };

  const open = (notation) => settle(notation, (r) => {
    players = r.players; wall = r.wall; rounds = r.sheet.rounds; end = r.sheet.end ?? {};
    choosing = null;
    entries = Array.from({ length: players }, blankEntry);
  });

  // -- drawing ----------------------------------------------------------------------------------
  const root = () => document.getElementById("scorekeeper");
  const gameOver = () => Boolean(reply?.game_over);

  const grey = () => wall === "grey";
  // The colour of a space laid: named on the grey wall, the space's own on the coloured (S5).
  const laidColor = ([r, c, color]) => color ?? wallColor(r, c);

  // The walls as the judge scored them: colour or null, and the spaces of the round entered.
  const wallOf = (p) => {
    const cells = Array.from({ length: 5 }, () => Array(5).fill(null));
    rounds.forEach((round) => round[p].placed.forEach((space) => { cells[space[0]][space[1]] = laidColor(space); }));
    return cells;
  };

  // -- the grey wall: a space, then its colour ------------------------------------------------
  const greySpace = (p, r, c, cells) => {
    const entry = entries[p];
    const laid = entry.placed.find(([x, y]) => x === r && y === c);
    const color = laid ? laid[2] : cells[r][c];
    const picked = choosing?.p === p && choosing.r === r && choosing.c === c;
    const label = color ? t("greyTile", { row: r + 1, column: c + 1, color: colorName(color) })
      : t("greySpace", { row: r + 1, column: c + 1 });
    const kind = color ? `tile ${color}` : "sk-grey-empty";
    return h("button", {
      type: "button", class: `sk-space ${kind}${laid ? " sk-laid" : ""}${picked ? " sk-choosing" : ""}`,
      "data-sk": `wall-${p}-${r}-${c}`, "aria-pressed": laid || picked ? "true" : "false",
      "aria-expanded": color ? null : String(picked),
      disabled: (cells[r][c] !== null) || gameOver(), title: label, "aria-label": label,
      onclick: () => {
        if (laid) entry.placed = entry.placed.filter(([x, y]) => x !== r || y !== c);
        choosing = laid || picked ? null : { p, r, c };
        draw(choosing ? `pick-${p}-${firstFree(p, r, c)}` : `wall-${p}-${r}-${c}`);
      },
    }, color ? glyph(color) : null);
  };

  // The colours already in the space's row and column: offered, but marked (the judge refuses them, V2, V5).
  const takenAt = (p, r, c) => {
    const cells = wallOf(p);
    entries[p].placed.forEach(([x, y, color]) => { cells[x][y] = color; });
    return new Set([...cells[r], ...cells.map((row) => row[c])].filter(Boolean));
  };

  const firstFree = (p, r, c) => {
    const taken = takenAt(p, r, c);
    return COLORS.find((color) => !taken.has(color)) ?? COLORS[0];
  };

  const palette = (p) => {
    const { r, c } = choosing;
    const back = () => { choosing = null; draw(`wall-${p}-${r}-${c}`); };
    const taken = takenAt(p, r, c);
    const group = h("div", { class: "sk-palette", role: "group", "data-sk": `palette-${p}`,
      "aria-label": t("choose", { row: r + 1, column: c + 1 }) },
    h("span", { class: "sk-hint", text: t("choose", { row: r + 1, column: c + 1 }) }),
    ...COLORS.map((color) => h("button", {
      type: "button", class: `tile ${color} sk-pick${taken.has(color) ? " sk-taken" : ""}`,
      "data-sk": `pick-${p}-${color}`,
      title: colorName(color) + (taken.has(color) ? ` (${t("taken")})` : ""),
      "aria-label": colorName(color) + (taken.has(color) ? ` (${t("taken")})` : ""),
      onclick: () => {
        entries[p].placed = [...entries[p].placed, [r, c, color]];
        back();
      },
    }, glyph(color))),
    h("button", { type: "button", class: "sk-cancel", "data-sk": `pick-${p}-cancel`, onclick: back, text: t("cancel") }));
    group.addEventListener("keydown", (event) => { if (event.key === "Escape") back(); });
    return group;
  };

  const greyWallPart = (p) => {
    const cells = wallOf(p);
    const grid = h("div", { class: "sk-wall sk-grey", role: "group", "aria-label": t("greyWall") });
    for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) grid.append(greySpace(p, r, c, cells));
    return h("div", {}, grid, choosing?.p === p ? palette(p) : null);
  };

  const wallPart = (p) => {
    if (grey()) return greyWallPart(p);
    const wall = wallOf(p);
    const entry = entries[p];
    const grid = h("div", { class: "sk-wall", role: "group", "aria-label": t("wall") });
    for (let r = 0; r < 5; r++) {
      for (let c = 0; c < 5; c++) {
        const color = wallColor(r, c);
        const laid = entry.placed.some(([x, y]) => x === r && y === c);
        const old = wall[r][c] !== null;
        const kind = old || laid ? `tile ${color}` : `sk-empty ${color}`;
        grid.append(h("button", {
          type: "button", class: `sk-space ${kind}${laid ? " sk-laid" : ""}`,
          "data-sk": `wall-${p}-${r}-${c}`, "aria-pressed": laid ? "true" : "false",
          disabled: old || gameOver(), title: t("space", { row: r + 1, column: c + 1, color: colorName(color) }),
          "aria-label": t("space", { row: r + 1, column: c + 1, color: colorName(color) }),
          onclick: () => {
            entry.placed = laid ? entry.placed.filter(([x, y]) => x !== r || y !== c) : [...entry.placed, [r, c]];
            draw(`wall-${p}-${r}-${c}`);
          },
        }, glyph(color)));
      }
    }
    return grid;
  };

  const floorPart = (p) => {
    const entry = entries[p];
    const line = h("div", { class: "sk-floor", role: "group", "aria-label": t("floor") });
    PENALTIES.forEach((penalty, i) => {
      const filled = i < entry.floor;
      line.append(h("button", {
        type: "button", class: `sk-floor-space${filled ? " sk-filled" : ""}`, "data-sk": `floor-${p}-${i}`,
        "aria-pressed": filled ? "true" : "false", disabled: gameOver(),
        "aria-label": t("floorSpace", { n: i + 1, penalty: -penalty }),
        onclick: () => { entry.floor = entry.floor === i + 1 ? i : i + 1; draw(`floor-${p}-${i}`); },
        text: `−${penalty}`,
      }));
    });
    const marker = h("button", {
      type: "button", class: `tile marker sk-marker${entry.marker ? " sk-laid" : ""}`, "data-sk": `marker-${p}`,
      "aria-pressed": entry.marker ? "true" : "false", disabled: gameOver(), title: t("marker"),
      "aria-label": t("marker"),
      onclick: () => { entry.marker = !entry.marker; draw(`marker-${p}`); },
    }, glyph("marker"));
    return h("div", { class: "sk-floor-row" }, line, marker);
  };

  const writtenPart = (p) => {
    const input = h("input", { type: "number", step: "1", "data-sk": `written-${p}`, disabled: gameOver() });
    input.value = entries[p].written ?? "";
    input.addEventListener("input", () => {
      entries[p].written = input.value === "" ? null : Number.parseInt(input.value, 10);
    });
    return h("label", { class: "sk-written" }, h("span", { text: t("written") }), input);
  };

  const boardsPart = () => {
    const boards = h("div", { class: "sk-boards" });
    for (let p = 0; p < players; p++) {
      const total = reply?.totals?.[p];
      boards.append(h("div", { class: "sk-board", "data-sk": `board-${p}` },
        h("h3", { text: t("player", { n: p + 1 }) + (total === undefined ? "" : ` · ${total}`) }),
        grey() ? h("p", { class: "sk-hint", text: t("greyWall") }) : null,
        wallPart(p), h("p", { class: "sk-hint", text: t("floor") }), floorPart(p), writtenPart(p)));
    }
    return boards;
  };

  // A written total: right (✓), or wrong (✗) with what the entries show and, worded as a
  // guess, the usual slip that gives the figure written (the judge's verdict_text).
  const verdictParts = (player) => {
    if (player.written === null) return [];
    if (player.verdict !== "wrong") return [h("span", { class: "sk-right", text: `${player.written} ✓ ${player.verdict_text}` })];
    return [h("strong", { class: "sk-wrong", text: `${player.written} ✗` }),
      h("div", { class: "sk-wrong sk-code", text: player.verdict_text }),
      ...player.violations.map((v) => h("div", { class: "sk-code sk-rule", text: `${v.code} (${v.rule})` }))];
  };
  const verdictCell = (player) => h("td", { class: player.verdict === "wrong" ? "sk-wrong" : null }, ...verdictParts(player));

  const sheetTable = () => {
    const head = h("tr", {}, h("th", { text: "" }),
      ...Array.from({ length: players }, (_, p) => h("th", { colspan: "4", text: t("player", { n: p + 1 }) })));
    const sub = h("tr", {}, h("th", { text: "" }),
      ...Array.from({ length: players }, () => [t("placements"), t("floorPenalty"), t("total"), t("writtenColumn")]
        .map((w) => h("th", { text: w }))).flat());
    const body = reply.rounds.map((round) => h("tr", { "data-sk": `round-${round.round}` },
      h("th", {}, h("a", { href: `?sheet=${round.notation}`, class: "sk-link", text: t("round", { n: round.round }),
        title: t("link", { n: round.round }) })),
      ...round.players.map((player) => [
        h("td", { text: player.placements.map((x) => t("placement", { row: x.row + 1, points: x.points })).join(", ") || t("none") }),
        h("td", { text: player.floor_penalty ? `−${player.floor_penalty}` : "0" }),
        h("td", { class: "sk-total", text: String(player.score_after) }),
        verdictCell(player),
      ]).flat()));
    return h("div", { class: "sk-table-wrap" }, h("table", { class: "sk-table" }, h("thead", {}, head, sub), h("tbody", {}, ...body)));
  };

  // A phone: one card per player, each round a line (its link, the tiles' points, the
  // floor, the total and the verdict on the figure written).
  const narrow = () => window.matchMedia(NARROW).matches;
  const sheetCards = () => h("div", { class: "sk-cards", "data-sk": "cards" },
    ...Array.from({ length: players }, (_, p) => h("section", { class: "sk-card", "data-sk": `card-${p}` },
      h("h4", { text: `${t("player", { n: p + 1 })} · ${reply.totals[p]}` }),
      h("ol", { class: "sk-card-rounds" }, ...reply.rounds.map((round) => {
        const player = round.players[p];
        const placed = player.placements.map((x) => t("placement", { row: x.row + 1, points: x.points })).join(", ") || t("none");
        return h("li", { "data-sk": `card-${p}-round-${round.round}` },
          h("a", { href: `?sheet=${round.notation}`, class: "sk-link", text: t("round", { n: round.round }) }),
          h("span", { class: "sk-card-line", text: ` ${placed} · ${t("floorPenalty")} ${player.floor_penalty ? `−${player.floor_penalty}` : "0"} · ` }),
          h("span", { class: "sk-total", text: `${t("total")} ${player.score_after}` }),
          player.written === null ? null : h("div", { class: "sk-verdict" }, ...verdictParts(player)));
      })))));

  const endCards = () => {
    const e = reply.end;
    return h("div", { class: "sk-cards" }, ...Array.from({ length: players }, (_, p) => h("section", { class: "sk-card", "data-sk": `end-card-${p}` },
      h("h4", { text: t("player", { n: p + 1 }) }),
      h("p", { text: `${t("bonuses")} · ${t("bonusDetail", e.bonuses[p])}` }),
      h("p", { class: "sk-total", text: `${t("final")} · ${e.final[p]}` }),
      h("label", { class: "sk-written" }, h("span", { text: t("writtenBonuses") }), figureInput("bonuses", p)),
      h("label", { class: "sk-written" }, h("span", { text: t("writtenFinal") }), figureInput("final", p)),
      h("label", { class: "sk-written" }, winnerBox(p), h("span", { text: t("writtenWinner") })))));
  };

  const figureInput = (name, p) => {
    const input = h("input", { type: "number", step: "1", "data-sk": `end-${name}-${p}`, "aria-label": `${t(name === "bonuses" ? "writtenBonuses" : "writtenFinal")} ${t("player", { n: p + 1 })}` });
    input.value = end[name]?.[p] ?? "";
    input.addEventListener("input", () => {
      const figures = end[name] ?? Array(players).fill(null);
      figures[p] = input.value === "" ? null : Number.parseInt(input.value, 10);
      end[name] = figures;
    });
    return input;
  };

  const winnerBox = (p) => {
    const box = h("input", { type: "checkbox", "data-sk": `end-winner-${p}`, "aria-label": `${t("writtenWinner")} ${t("player", { n: p + 1 })}` });
    box.checked = (end.winners ?? []).includes(p);
    box.addEventListener("change", () => {
      const chosen = new Set(end.winners ?? []);
      if (box.checked) chosen.add(p); else chosen.delete(p);
      end.winners = [...chosen].sort();
      if (!end.winners.length) delete end.winners;
    });
    return box;
  };

  const figureInputs = (name) => Array.from({ length: players }, (_, p) => h("td", {}, figureInput(name, p)));

  const endPart = () => {
    const e = reply.end;
    const winners = e.winners.map((w) => t("player", { n: w + 1 })).join(", ");
    const table = h("table", { class: "sk-table" },
      h("tr", {}, h("th", { text: "" }), ...Array.from({ length: players }, (_, p) => h("th", { text: t("player", { n: p + 1 }) }))),
      h("tr", {}, h("th", { text: t("bonuses") }), ...e.bonuses.map((b) => h("td", { text: t("bonusDetail", b) }))),
      h("tr", {}, h("th", { text: t("final") }), ...e.final.map((f) => h("td", { class: "sk-total", text: String(f) }))),
      h("tr", {}, h("th", { text: t("writtenBonuses") }), ...figureInputs("bonuses")),
      h("tr", {}, h("th", { text: t("writtenFinal") }), ...figureInputs("final")),
      h("tr", {}, h("th", { text: t("writtenWinner") }), ...Array.from({ length: players }, (_, p) => h("td", {}, winnerBox(p)))));
    return h("div", { class: "sk-end", "data-sk": "end" },
      h("h3", { text: t("end") }),
      h("p", { class: "sk-winners", "data-sk": "winners", text: t("winners", { count: e.winners.length, names: winners }) }),
      narrow() ? endCards() : table,
      h("button", { type: "button", "data-sk": "check-end", onclick: checkEnd, text: t("checkEnd") }),
      ...e.violations.map((v) => h("p", { class: "sk-wrong sk-code", text: `${v.code} (${v.rule}): ${v.message}` })));
  };

  const refusalPart = () => h("div", { class: "sk-refused", role: "alert", "data-sk": "refused" },
    h("strong", { text: t("refused") }),
    h("ul", {}, ...(refusal.errors ?? [{ problem: refusal.detail }]).map((e) => h("li", { text: e.problem + (e.rule ? ` (${e.rule})` : "") }))));

  const download = () => {
    const blob = new Blob([JSON.stringify(reply, null, 2)], { type: "application/json" });
    const link = h("a", { href: URL.createObjectURL(blob), download: "azul-scoresheet.json" });
    document.body.append(link);
    link.click();
    link.remove();
  };

  const draw = (focusKey) => {
    const section = root();
    if (!section) return;
    const number = rounds.length + 1;
    const select = h("select", { "data-sk": "players", "aria-label": t("players") },
      ...[2, 3, 4].map((n) => h("option", { value: String(n), selected: n === players, text: String(n) })));
    select.addEventListener("change", () => newSheet(Number(select.value)));
    const side = h("select", { "data-sk": "wall", "aria-label": t("wallSide") },
      ...["colored", "grey"].map((w) => h("option", { value: w, selected: w === wall, text: t(w) })));
    side.addEventListener("change", () => { wall = side.value; newSheet(players); });
    section.replaceChildren(...[
      h("h2", { id: "scorekeeper-title", text: t("title") }),
      h("p", { class: "sk-intro", text: t("intro") }),
      h("div", { class: "sk-controls" },
        h("label", {}, h("span", { text: `${t("players")} ` }), select),
        h("label", {}, h("span", { text: `${t("wallSide")} ` }), side),
        h("button", { type: "button", "data-sk": "new", onclick: () => newSheet(players), text: t("new") }),
        rounds.length ? h("button", { type: "button", "data-sk": "undo", onclick: takeBack, text: t("undo") }) : null),
      boardsPart(),
      gameOver() ? h("p", { class: "sk-over", text: t("over") })
        : h("button", { type: "button", class: "primary", "data-sk": "score", onclick: scoreRound, text: t("score", { n: number }) }),
      refusal ? refusalPart() : null,
      reply && reply.rounds.length ? h("h3", { text: t("sheet") }) : null,
      reply && reply.rounds.length ? (narrow() ? sheetCards() : sheetTable()) : null,
      reply?.end ? endPart() : null,
      reply && reply.rounds.length ? h("p", { class: "sk-share" },
        h("a", { id: "scorekeeper-share", href: `?sheet=${reply.notation}`, text: t("link", { n: reply.rounds.length }) }), " · ",
        h("button", { type: "button", "data-sk": "download", onclick: download, text: t("download") })) : null,
    ].filter(Boolean));
    section.setAttribute("aria-labelledby", "scorekeeper-title");
    if (focusKey) section.querySelector(`[data-sk="${focusKey}"]`)?.focus();
  };

  document.addEventListener("DOMContentLoaded", () => {
    draw();
    // The page's language buttons set <html lang>: redraw (and ask again) in the new language.
    new MutationObserver(() => { if (reply) settle(sheet(false), () => {}); else draw(); })
      .observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
    window.matchMedia(NARROW).addEventListener("change", () => draw());
    const linked = new URLSearchParams(location.search).get("sheet");
    if (linked) open(linked);
  });
})();
