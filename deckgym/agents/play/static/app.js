// deckgym play page: the lobby, the card table, the replay viewer. Plain JavaScript, no build step.
//
// It talks only to the JSON API of agents/play/server.py. Each ruleset's board is drawn by its
// own script (boards/<ruleset>.js), which registers
//     window.deckgymBoards[envName] = function draw(view, ctx) -> HTMLElement
// with ctx = {details}. Every spot of a board that a move can concern carries
// data-place="zone/player/index" and the class "place": the page marks the spots of the legal
// moves ("legal"), lets a person play a move by clicking its spots, and marks what the last
// moves changed ("changed"). A ruleset without a board is drawn generically from its view.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 300;

  const app = {
    catalogue: null, // GET /api/envs
    game: null, // the latest game object
    busy: false, // a request that changes the game is in flight
    thinking: false, // the person's move was sent: the AI answers
    pollToken: 0, // the polling loop that may still draw (0: none)
    selection: [], // the place keys clicked so far towards a move
    baseline: null, // {key: text} of the board before the person's last move
    hint: null, // the latest hint, for the position with `moves` moves
    hintWaiting: false,
    replay: null, // POST /api/replays answer
    replayText: null, // the replay file's text
    replayAt: 0,
    zoom: 1, // the board's zoom on a wide screen (fitBoard)
  };
  window.deckgym = app; // for tests and the console
  window.deckgymBoards = window.deckgymBoards || {};

  // ---------------------------------------------------------------- helpers
  const { el } = window.deckgymDom;

  const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const isScalar = (v) => v === null || v === undefined || ["string", "number", "boolean"].includes(typeof v);
  const isCard = (v) => isObj(v) && typeof v.name === "string" && v.name !== "";
  const isHidden = (v) => isObj(v) && v.hidden === true;
  const wrapsCard = (v) => isObj(v) && !isCard(v) && isCard(v.card);
  const isTile = (v) => isCard(v) || isHidden(v) || wrapsCard(v);
  const isEmpty = (v) =>
    v === null || v === undefined || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
  // a list of scalars, but not a list of empty slots (all null), which is drawn as tiles
  const isScalarList = (v) => Array.isArray(v) && v.every(isScalar) && !(v.length && v.every((x) => x === null));
  const pretty = (key) => String(key).replace(/_/g, " ");
  const capital = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

  function containsTile(v, depth = 0) {
    if (depth > 6 || isScalar(v)) return false;
    if (isTile(v)) return true;
    return (Array.isArray(v) ? v : Object.values(v)).some((x) => containsTile(x, depth + 1));
  }

  function scalarText(v) {
    if (v === null || v === undefined) return "—";
    if (typeof v === "boolean") return v ? "yes" : "no";
    return String(v);
  }

  /** A move's place as the key the boards put in data-place: "zone/player/index". */
  const placeKey = (p) => `${p.zone}/${p.player ?? ""}/${p.index ?? ""}`;

  // ---------------------------------------------------------------- API
  async function api(method, path, body, asText = false) {
    const opts = { method, headers: {} };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, opts);
    } catch (exc) {
      throw new Error(`the server did not answer (${exc.message})`);
    }
    if (!res.ok) {
      let msg = `${res.status} ${res.statusText}`;
      try {
        const j = await res.json();
        if (j && j.error) msg = j.error;
        else if (j && j.detail) msg = typeof j.detail === "string" ? j.detail : JSON.stringify(j.detail);
      } catch (_) {
        /* not JSON */
      }
      throw new Error(msg);
    }
    return asText ? res.text() : res.json();
  }

  const gamePath = (suffix = "") => `/api/games/${encodeURIComponent(app.game.game_id)}${suffix}`;

  function showError(msg) {
    $("error-text").textContent = msg;
    $("error").hidden = false;
    fitLayout(); // the banner moves the game down
  }

  function clearError() {
    if ($("error").hidden) return;
    $("error").hidden = true;
    $("error-text").textContent = "";
    fitLayout();
  }

  function setBusy(on) {
    app.busy = on;
    document.body.classList.toggle("busy", on);
    $("actions").setAttribute("aria-busy", on ? "true" : "false");
    $("start").disabled = on;
    if (app.game) {
      showControls(app.game);
      decorate(); // the legal places are outlined only while the person can move
    }
  }

  // ---------------------------------------------------------------- the generic drawing
  // Used for a ruleset without a board of its own (boards/*.js) and when a board fails.

  /** Bookkeeping fields, shown only with "details" on. */
  const INTERNAL = new Set(["id", "uid", "vacant", "cancel_penalty", "free_far", "redirected", "position", "index"]);
  const shownKey = (k, ctx) => ctx.details || !INTERNAL.has(k);

  /** A card tile: a card dict, a wrapper with a "card" (a square, a slot) or a face-down card. */
  function renderTile(v, ctx) {
    const outer = v;
    const owner = typeof outer.owner === "number" ? outer.owner : null;
    const ownerClass = owner === null || ctx.seat === undefined ? "" : owner === ctx.seat ? " own" : " foe";
    if (isHidden(v)) {
      const bits = [];
      for (const [k, x] of Object.entries(v)) {
        if (["hidden", "face_up", "owner"].includes(k) || x === false || x === null) continue;
        if (typeof x === "number" || typeof x === "string") bits.push(`${pretty(k)} ${x}`);
        else if (x === true) bits.push(pretty(k));
      }
      return el(
        "div",
        { class: "tile facedown" + ownerClass, title: "face down" },
        el("div", { class: "tile-back" }),
        bits.length ? el("div", { class: "tile-foot" }, bits.join(" · ")) : null,
      );
    }
    const card = isCard(v) ? v : v.card;
    const wrap = isCard(v) ? {} : v;
    const sub = ["kind", "type", "class", "slot", "action", "timing"]
      .map((k) => card[k])
      .filter((x) => typeof x === "string" && x !== "")
      .map((x) => x.toLowerCase());
    const stats = [];
    const seen = new Set();
    const skip = new Set(["id", "square", "owner", "seat", "index", "count"]);
    for (const [k, x] of Object.entries(wrap)) {
      if (typeof x === "number" && !skip.has(k) && shownKey(k, ctx)) {
        const printed = card[k];
        const mod = typeof printed === "number" && printed !== x ? (x > printed ? " up" : " down") : "";
        stats.push(el("span", { class: "stat" + mod, title: typeof printed === "number" ? `printed ${printed}` : null }, el("b", {}, pretty(k)), " ", x));
        seen.add(k);
      }
    }
    for (const [k, x] of Object.entries(card)) {
      if (typeof x === "number" && !skip.has(k) && !seen.has(k) && shownKey(k, ctx)) {
        stats.push(el("span", { class: "stat" }, el("b", {}, pretty(k)), " ", x));
      }
    }
    const tags = [];
    for (const [k, x] of Object.entries(wrap)) {
      if (k === "card" || k === "you" || !shownKey(k, ctx)) continue;
      if (k === "face_up") {
        if (x === false) tags.push("face down");
      } else if (x === true) tags.push(pretty(k));
      else if (Array.isArray(x) && x.length && x.every((y) => typeof y === "string")) tags.push(...x.map(pretty));
      else if (isCard(x) && k !== "card") tags.push(`${pretty(k)}: ${x.name}`);
    }
    for (const [k, x] of Object.entries(card)) {
      if (x === true && !["face_up", "hidden"].includes(k) && shownKey(k, ctx)) tags.push(pretty(k));
    }
    const lines = [];
    for (const [k, x] of Object.entries(card)) {
      if (Array.isArray(x) && x.length && x.every((y) => typeof y === "string")) {
        lines.push(k === "effects" || k === "abilities" ? x.join("; ") : `${pretty(k)}: ${x.join(" ")}`);
      } else if (Array.isArray(x) && x.length && x.every((y) => isObj(y) && typeof y.text === "string")) {
        lines.push(x.map((y) => y.text).join("; "));
      } else if (isObj(x) && Object.keys(x).length && Object.values(x).every(isScalar)) {
        lines.push(`${pretty(k)}: ${Object.entries(x).map(([a, b]) => `${a} ${scalarText(b)}`).join(", ")}`);
      }
    }
    const title = [card.name, typeof card.text === "string" ? card.text : "", ...lines].filter(Boolean).join("\n");
    return el(
      "div",
      { class: "tile" + ownerClass + (typeof card.kind === "string" ? ` kind-${card.kind.toLowerCase()}` : ""), title },
      el(
        "div",
        { class: "tile-head" },
        el("span", { class: "tile-name" }, card.name),
        typeof card.count === "number" ? el("span", { class: "tile-count" }, `×${card.count}`) : null,
      ),
      sub.length ? el("div", { class: "tile-sub" }, sub.join(" · ")) : null,
      stats.length ? el("div", { class: "tile-stats" }, stats) : null,
      tags.length ? el("div", { class: "tile-tags" }, tags.map((t) => el("span", { class: "tag" }, t))) : null,
      lines.length ? el("div", { class: "tile-text" }, lines.join(" · ")) : null,
      card.id !== undefined && ctx.details ? el("div", { class: "tile-id" }, String(card.id)) : null,
    );
  }

  /** Any JSON value: scalars as text, card lists as tiles, dicts as key/value lists. */
  function renderValue(v, ctx, depth = 0) {
    if (isScalar(v)) return el("span", { class: v === null || v === undefined ? "muted" : "scalar" }, scalarText(v));
    if (isTile(v)) return renderTile(v, ctx);
    if (Array.isArray(v)) {
      if (v.length === 0) return el("span", { class: "muted" }, "none");
      if (isScalarList(v)) return el("span", { class: "scalar" }, v.map(scalarText).join(", "));
      if (v.every((x) => x === null || isTile(x))) {
        return el(
          "div",
          { class: "tiles" },
          v.map((x) => (x === null ? el("div", { class: "tile empty" }, "empty") : renderTile(x, ctx))),
        );
      }
      if (v.every((x) => isObj(x) && !containsTile(x) && Object.values(x).every(isFlat))) return renderTable(v);
      return el("ol", { class: "items" }, v.map((x) => el("li", {}, renderValue(x, ctx, depth + 1))));
    }
    // a dict
    const entries = Object.entries(v).filter(([k]) => shownKey(k, ctx));
    if (entries.length === 0) return el("span", { class: "muted" }, "none");
    const facts = entries.filter(([, x]) => isScalar(x) || isScalarList(x));
    const rest = entries.filter(([, x]) => !(isScalar(x) || isScalarList(x)));
    const box = el("div", { class: "dict" });
    if (facts.length) box.append(renderFacts(facts));
    for (const [k, x] of rest) {
      const inner = renderValue(x, ctx, depth + 1);
      if (!containsTile(x) && JSON.stringify(x).length > 120) {
        box.append(el("details", { class: "sub" }, el("summary", {}, pretty(k)), inner));
      } else {
        box.append(el("div", { class: "sub" }, el("div", { class: "sub-key" }, pretty(k)), inner));
      }
    }
    return box;
  }

  /** A value short enough for one table cell: a scalar, a list of scalars or a dict of scalars. */
  const isFlat = (x) =>
    isScalar(x) || (Array.isArray(x) && x.every(isScalar)) || (isObj(x) && Object.values(x).every(isScalar));

  function flatText(x) {
    if (Array.isArray(x)) return x.length ? x.map(scalarText).join(", ") : "—";
    if (isObj(x)) return Object.entries(x).map(([k, y]) => `${pretty(k)} ${scalarText(y)}`).join(", ") || "—";
    return scalarText(x);
  }

  /** A list of flat dicts (lasting effects, teams...) as a table. */
  function renderTable(rows) {
    const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    return el(
      "table",
      { class: "table" },
      el("thead", {}, el("tr", {}, keys.map((k) => el("th", {}, pretty(k))))),
      el(
        "tbody",
        {},
        rows.map((r) => el("tr", {}, keys.map((k) => el("td", { class: isEmpty(r[k]) || r[k] === false ? "muted" : "" }, flatText(r[k]))))),
      ),
    );
  }

  function renderFacts(entries) {
    return el(
      "dl",
      { class: "facts" },
      entries.map(([k, x]) =>
        el(
          "div",
          { class: "fact" },
          el("dt", {}, pretty(k)),
          el("dd", { class: isEmpty(x) || x === false ? "muted" : "" }, Array.isArray(x) ? x.map(scalarText).join(", ") || "none" : scalarText(x)),
        ),
      ),
    );
  }

  /**
   * A "squares" list drawn as a grid of `width` columns. When the rows are named after seats
   * (a board "layout" with "rows"), the rows are drawn so that the viewer's row is at the bottom,
   * next to the viewer's own panel; the cells keep their square numbers.
   */
  function renderGrid(squares, width, rowNames, ctx) {
    const rows = Math.ceil(squares.length / width);
    let order = [...Array(rows).keys()];
    if (rowNames && ctx.seat !== undefined) {
      const mine = order.find((r) => new RegExp(`\\bseat ${ctx.seat}\\b`).test(String(rowNames[String(r)] ?? "")));
      if (mine !== undefined && mine < (rows - 1) / 2) order = order.reverse();
    }
    const grid = el("div", {
      class: "grid",
      style: `grid-template-columns: ${rowNames ? "auto " : ""}repeat(${width}, minmax(7.5rem, 1fr));`,
    });
    for (const r of order) {
      if (rowNames) grid.append(el("div", { class: "row-name" }, rowNames[String(r)] ?? `row ${r}`));
      for (let c = 0; c < width; c++) {
        const i = r * width + c;
        if (i >= squares.length) {
          grid.append(el("div", { class: "cell void" }));
          continue;
        }
        const sq = squares[i];
        const cell = el("div", { class: "cell" }, el("span", { class: "cell-index" }, String(i)));
        if (sq === null || sq === undefined) cell.classList.add("vacant");
        else if (isTile(sq)) cell.append(renderTile(sq, ctx));
        else cell.append(renderValue(sq, ctx, 1));
        grid.append(cell);
      }
    }
    return grid;
  }

  /** A zone box: a titled value. */
  function zone(title, value, ctx, extraClass = "") {
    return el("div", { class: "zone " + extraClass }, el("h4", {}, pretty(title)), renderValue(value, ctx, 1));
  }

  function renderPlayer(p, view, ctx) {
    const toMove = view.to_move === p.seat;
    const ally = !p.you && (ctx.seats || []).includes(p.seat);
    const name = typeof p.name === "string" && p.name ? `${p.name} (seat ${p.seat})` : `Seat ${p.seat}`;
    const head = el(
      "div",
      { class: "player-head" },
      el("strong", {}, name),
      p.you ? el("span", { class: "badge you" }, "you") : null,
      ally ? el("span", { class: "badge you" }, "yours") : null,
      toMove ? el("span", { class: "badge move" }, "to move") : null,
    );
    const facts = [];
    const zones = [];
    for (const [k, x] of Object.entries(p)) {
      if (["seat", "you", "name"].includes(k) || !shownKey(k, ctx)) continue;
      if (isScalar(x) || (isScalarList(x) && x.length < 12)) facts.push([k, x]);
      else zones.push([k, x]);
    }
    return el(
      "div",
      { class: "player" + (p.you || ally ? " you" : "") + (toMove ? " to-move" : "") },
      head,
      facts.length ? renderFacts(facts) : null,
      el("div", { class: "zones" }, zones.map(([k, x]) => zone(k, x, ctx))),
    );
  }

  function renderBoard(board, ctx) {
    const box = el("div", { class: "board" }, el("h3", {}, "Board"));
    if (!isObj(board)) {
      box.append(renderValue(board, ctx));
      return box;
    }
    const layout = isObj(board.layout) ? board.layout : {};
    const width = Number(board.width ?? layout.width) || 0;
    const facts = [];
    const zones = [];
    let grid = null;
    for (const [k, x] of Object.entries(board)) {
      if (!shownKey(k, ctx)) continue;
      if (k === "squares" && Array.isArray(x) && width > 0) {
        grid = renderGrid(x, width, isObj(layout.rows) ? layout.rows : null, ctx);
      } else if (k === "width" && width > 0 && typeof x === "number") {
        continue;
      } else if (isScalar(x) || isEmpty(x) || isScalarList(x)) {
        facts.push([k, x]);
      } else {
        zones.push([k, x]);
      }
    }
    if (facts.length) box.append(renderFacts(facts));
    if (grid) box.append(grid);
    const shown = zones.filter(([k]) => !(grid && k === "layout"));
    box.append(el("div", { class: "zones" }, shown.map(([k, x]) => zone(k, x, ctx))));
    if (grid && board.layout !== undefined) {
      // the layout only explains the grid above: keep it at hand, folded
      box.append(el("details", { class: "sub" }, el("summary", {}, "layout"), renderValue(board.layout, ctx, 1)));
    }
    return box;
  }

  /** A per-seat view drawn generically: the other players on top, the board, then this seat. */
  function genericView(view, ctx) {
    const out = el("div", { class: "generic" });
    if (!isObj(view)) {
      out.append(el("pre", { class: "text" }, JSON.stringify(view, null, 2)));
      return out;
    }
    ctx = { seat: view.seat, seats: [], details: false, ...ctx };
    const seats = ctx.seats;
    const players = Array.isArray(view.players) ? view.players : [];
    const status = [
      `turn ${view.turn ?? "?"}`,
      view.done ? "game over" : `seat ${view.to_move} to move`,
      `viewing as seat ${view.seat}`,
    ];
    out.append(el("div", { class: "view-status" }, status.join(" · ")));
    const isMine = (p) => p.you || seats.includes(p.seat);
    const others = players.filter((p) => !isMine(p));
    const mine = players.filter(isMine);
    if (others.length) out.append(el("div", { class: "players others" }, others.map((p) => renderPlayer(p, view, ctx))));
    if (view.board !== undefined) out.append(renderBoard(view.board, ctx));
    if (mine.length) out.append(el("div", { class: "players mine" }, mine.map((p) => renderPlayer(p, view, ctx))));
    return out;
  }

  // ---------------------------------------------------------------- boards
  /** The board of `view`: its ruleset's drawing when one is registered, else the generic one. */
  function drawView(view, ctx) {
    const draw = isObj(view) ? window.deckgymBoards[view.env] : undefined;
    if (typeof draw === "function") {
      try {
        const node = draw(view, { details: !!ctx.details });
        if (node instanceof Node) return el("div", { class: "ruleset-board", "data-env": view.env }, node);
        console.error(`the ${view.env} board drew nothing`);
      } catch (exc) {
        console.error(`the ${view.env} board failed: ${exc && exc.stack ? exc.stack : exc}`);
      }
    }
    return genericView(view, ctx);
  }

  /** The text of every place on a drawn board, to see what a move changed. */
  function placeTexts(root) {
    const out = {};
    for (const node of root.querySelectorAll("[data-place]")) {
      const key = node.dataset.place;
      out[key] = (out[key] ?? "") + "|" + node.textContent;
    }
    return out;
  }

  function placeNodes(root, key) {
    return [...root.querySelectorAll("[data-place]")].filter((n) => n.dataset.place === key);
  }

  // ---------------------------------------------------------------- "How to play" text
  /** Inline markdown: **bold**, *emphasis*, `code`; everything else as text. */
  function inline(text) {
    const out = [];
    const re = /(\*\*[^*]+\*\*|__[^_]+__|`[^`]+`|\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g;
    let last = 0;
    for (const m of text.matchAll(re)) {
      if (m.index > last) out.push(text.slice(last, m.index));
      const t = m[0];
      if (t.startsWith("**") || t.startsWith("__")) out.push(el("strong", {}, inline(t.slice(2, -2))));
      else if (t.startsWith("`")) out.push(el("code", {}, t.slice(1, -1)));
      else out.push(el("em", {}, inline(t.slice(1, -1))));
      last = m.index + t.length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }

  /** Simple markdown (headings, lists, tables, paragraphs, bold) as page elements. */
  function markdown(text) {
    const box = el("div", { class: "markdown" });
    let para = null;
    let list = null;
    let table = null;
    const close = () => {
      para = list = table = null;
    };
    for (const raw of String(text || "").split("\n")) {
      const line = raw.replace(/\s+$/, "");
      let m;
      if (line.trim() === "") {
        close();
      } else if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
        close();
        box.append(el(`h${Math.min(6, m[1].length + 2)}`, {}, inline(m[2])));
      } else if ((m = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line))) {
        const tag = m[1] ? "ul" : "ol";
        if (!list || list.tagName.toLowerCase() !== tag) {
          close();
          list = el(tag, {});
          box.append(list);
        }
        list.append(el("li", {}, inline(m[3])));
      } else if (/^\s*\|/.test(line)) {
        const cells = line.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
        if (cells.every((c) => /^:?-+:?$/.test(c))) continue; // the header rule
        if (!table) {
          close();
          table = el("table", { class: "table" });
          box.append(table);
          table.append(el("tr", {}, cells.map((c) => el("th", {}, inline(c)))));
        } else {
          table.append(el("tr", {}, cells.map((c) => el("td", {}, inline(c)))));
        }
      } else if (list && /^\s+\S/.test(raw)) {
        list.lastElementChild.append(" ", ...inline(line.trim())); // a list item's next line
      } else {
        if (!para) {
          close();
          para = el("p", {});
          box.append(para);
        } else {
          para.append(" ");
        }
        para.append(...inline(line.trim()));
      }
    }
    return box;
  }

  // ---------------------------------------------------------------- lobby
  function envOf(name) {
    return (app.catalogue?.envs || []).find((e) => e.name === name);
  }

  function currentEnv() {
    return envOf($("env").value);
  }

  function fillSelect(select, values, { labels = null, selected = null, extra = [] } = {}) {
    select.replaceChildren();
    for (const [v, text] of extra) select.append(el("option", { value: v }, text));
    values.forEach((v, i) => select.append(el("option", { value: v }, labels ? labels[i] : v)));
    if (selected !== null && [...select.options].some((o) => o.value === selected)) select.value = selected;
  }

  /** "Hard — the rules of thumb with look-ahead over 4 imagined deals (score vs Easy: 0.60)". */
  function levelText(lv) {
    const games = lv.measured && lv.measured.games ? ` over ${lv.measured.games} games` : "";
    const score = typeof lv.score === "number" ? ` (score vs Easy: ${lv.score.toFixed(2)}${games})` : "";
    return `${lv.name} — ${lv.about}${score}`;
  }

  const OPTION_TITLES = { team_sizes: "Teams" };

  function optionText(x) {
    return Array.isArray(x) ? x.join(" v ") : String(x);
  }

  function onEnvChange() {
    const env = currentEnv();
    if (!env) return;
    $("env-doc").textContent = `${env.players} players`;
    $("mode-field").hidden = env.modes.length === 0;
    fillSelect($("mode"), env.modes, {
      labels: env.modes.map((m) => env.mode_titles?.[m] || m),
      selected: env.modes.includes("normal") ? "normal" : null,
    });
    const opts = $("options-fields");
    opts.replaceChildren();
    for (const [k, values] of Object.entries(env.options || {})) {
      const sel = el("select", { "data-option": k });
      fillSelect(sel, values.map((x) => JSON.stringify(x)), { labels: values.map(optionText) });
      opts.append(el("label", {}, OPTION_TITLES[k] || capital(pretty(k)), " ", sel));
    }
    const help = $("lobby-help");
    help.hidden = !env.help;
    $("lobby-help-body").replaceChildren(markdown(env.help));
    onModeChange();
  }

  function modeNow() {
    return $("mode-field").hidden ? "" : $("mode").value || "";
  }

  function deckNames() {
    const env = currentEnv();
    if (!env) return [];
    return env.decks[modeNow()] || env.decks[""] || [];
  }

  function onModeChange() {
    const env = currentEnv();
    if (!env) return;
    const names = deckNames();
    for (const id of ["deck-you", "deck-opp"]) {
      fillSelect($(id), names, { extra: [["random", "random"]], selected: "random" });
      $(`${id}-field`).hidden = names.length === 0;
    }
    const levels = env.levels[modeNow()] || env.levels[""] || Object.values(env.levels)[0] || [];
    const keep = $("opponent").value || app.catalogue.default_level;
    fillSelect(
      $("opponent"),
      levels.map((lv) => lv.name),
      { labels: levels.map(levelText), selected: levels.some((lv) => lv.name === keep) ? keep : app.catalogue.default_level },
    );
  }

  function gameRequest() {
    const env = currentEnv();
    const options = {};
    if (env.modes.length) options.mode = $("mode").value;
    for (const sel of document.querySelectorAll("#options-fields select")) {
      if (sel.value !== "") options[sel.dataset.option] = JSON.parse(sel.value);
    }
    let seat = $("seat").value;
    const seedText = $("seed").value.trim();
    const seed = seedText === "" ? null : Number(seedText);
    if (seedText !== "" && !Number.isInteger(seed)) throw new Error(`the seed must be a whole number, got ${seedText}`);
    const names = deckNames();
    const you = $("deck-you").value;
    const opp = $("deck-opp").value;
    if (names.length && (you !== "random" || opp !== "random")) {
      // decks are per seat: the person's seat must be known to place the person's deck
      if (seat === "random") seat = String(Math.floor(Math.random() * 2));
      const pick = (d) => (d === "random" ? names[Math.floor(Math.random() * names.length)] : d);
      const mine = pick(you);
      const theirs = pick(opp);
      options.decks = seat === "0" ? [mine, theirs] : [theirs, mine];
    }
    return {
      env: env.name,
      options,
      opponent: $("opponent").value,
      seat: seat === "random" ? "random" : Number(seat),
      seed,
    };
  }

  /** Whether a game is on that leaving would abandon. */
  const liveGame = () => !!(app.game && !app.game.done && !$("game").hidden);

  async function startGame(ev) {
    if (ev) ev.preventDefault();
    if (app.busy) return;
    clearError();
    let body;
    try {
      body = gameRequest();
    } catch (exc) {
      showError(exc.message);
      return;
    }
    setBusy(true);
    try {
      const g = await api("POST", "/api/games", body);
      app.mode = body.options.mode || "";
      enterGame(g);
    } catch (exc) {
      showError(exc.message);
    } finally {
      setBusy(false);
    }
  }

  /** Leave the game for the lobby (asking first while the game is on). */
  function newGame() {
    if (liveGame() && !window.confirm("Leave the game in progress? Its address (copy it first) resumes it.")) return;
    stopPolling();
    app.game = null;
    window.history.replaceState(null, "", window.location.pathname);
    $("game").hidden = true;
    $("lobby").hidden = false;
    $("lobby").scrollIntoView({ block: "start" });
  }

  // ---------------------------------------------------------------- game
  /** Show a new game (from the lobby or a rematch): a fresh log, no replay from before. */
  function enterGame(g) {
    stopPolling();
    app.game = null;
    app.selection = [];
    app.baseline = null;
    app.hint = null;
    app.lookback = null;
    app.moveListAt = null;
    $("lookback").hidden = true;
    $("moves-panel").open = false;
    $("move-list").replaceChildren();
    clearReplay();
    $("log").replaceChildren();
    $("lobby").hidden = true;
    $("game").hidden = false;
    // the game's address: a reload, or the same address after a server restart, resumes it
    window.history.replaceState(null, "", `?game=${encodeURIComponent(g.game_id)}`);
    const env = envOf(g.env);
    $("help-body").replaceChildren(markdown(env?.help || ""));
    $("help-toggle").hidden = !env?.help;
    $("help").hidden = true;
    showGame(g);
    window.scrollTo(0, 0); // the game is laid out to fit the window from the page's top
  }

  const canMove = () => !!(app.game && app.game.your_turn && !app.game.done && !app.busy && !app.lookback);

  /** The legal moves with their place keys. */
  function legalMoves() {
    return (app.game?.legal || []).map((m) => ({ ...m, keys: [...new Set((m.places || []).map(placeKey))] }));
  }

  /** The moves whose places include every key of `keys`. */
  function candidatesFor(keys) {
    return legalMoves().filter((m) => keys.every((k) => m.keys.includes(k)));
  }

  function showControls(g) {
    const live = !g.done;
    $("undo").disabled = app.busy || !g.can_undo;
    $("hint").disabled = app.busy || app.hintWaiting || !g.your_turn || !live;
    $("resign").disabled = !live; // resign is taken at any time, even while the AI thinks
    $("rematch").disabled = app.busy;
    $("watch-replay").disabled = app.busy;
    for (const b of document.querySelectorAll("#actions button.action")) b.disabled = !canMove();
  }

  function showHead(g) {
    const env = envOf(g.env);
    const mode = env?.mode_titles?.[app.mode] || "";
    $("game-title").textContent = [env?.title || g.env, mode].filter(Boolean).join(" · ");
    // the players by the names the log gives them (P0, P1; A0, B1 in AMALOGS), "you" and "the AI"
    const all = Array.isArray(g.view?.players) ? g.view.players.map((_, i) => i) : [0, 1];
    const names = (seats) => seats.map((s) => playerName(g, s)).join(", ");
    const ai = all.filter((s) => !g.seats.includes(s));
    const meta = `you: ${names(g.seats)} · opponent: ${ai.length ? names(ai) + ", " : ""}${g.level || g.opponent} AI · move ${g.moves ?? 0}`;
    $("game-meta").textContent = meta;
    $("game-meta").title = meta; // the head is one line on a wide screen: its ends may be cut
    $("game-title").title = $("game-title").textContent;
  }

  /** The name the log gives seat `s`: the view's own name for it (AMALOGS "A0"), else "P0". */
  function playerName(g, s) {
    const name = g.view?.players?.[s]?.name;
    return typeof name === "string" && name ? name : `P${s}`;
  }

  function showDecision(g) {
    const dec = $("decision");
    if (g.done) {
      dec.textContent = "The game is over.";
      dec.className = "decision over";
    } else if (g.your_turn && !app.thinking) {
      dec.textContent = g.decision_text || "Your move.";
      dec.className = "decision yours";
    } else {
      dec.textContent = "The opponent is playing…";
      dec.className = "decision waiting";
    }
    const thinking = !!(g.ai_thinking || app.thinking) && !g.done;
    $("thinking").hidden = !thinking;
    runClock(thinking);
  }

  /** The AI's clock: the seconds it has been thinking, counted while it thinks. */
  function runClock(on) {
    if (!on) {
      clearInterval(app.clockTimer);
      app.clockTimer = null;
      app.clockSince = null;
      return;
    }
    if (app.clockTimer) return;
    app.clockSince = performance.now();
    const tick = () => {
      const s = (performance.now() - app.clockSince) / 1000;
      $("clock").textContent = `${s.toFixed(1)} s`;
    };
    tick();
    app.clockTimer = setInterval(tick, 100);
  }

  /** The legal moves as buttons, one a line. A long list (AMALOGS: "Move to row 3, column 1" for
   * every square in reach) folds the moves whose texts differ only by a closing number into one
   * line of small buttons, "Move to row 3, column: 1 2 4"; each button keeps its move's whole
   * text as its name and tooltip. */
  function showMoves(g) {
    const moves = legalMoves();
    const texts = distinctTexts(moves);
    const button = (m, i, shown, cls) => {
      const b = el(
        "button",
        {
          type: "button",
          class: "action" + cls,
          "data-index": String(m.index),
          title: texts[i] === m.label ? m.label : `${texts[i]}\n(${m.label})`,
          "aria-label": shown === texts[i] ? null : texts[i],
          onclick: () => act(m.index),
        },
        shown,
      );
      b.addEventListener("mouseenter", () => markPlaces(m.keys, "hover"));
      b.addEventListener("mouseleave", () => markPlaces([], "hover"));
      return b;
    };
    const long = moves.length > LONG_MOVE_LIST;
    const rows = [];
    for (const group of long ? foldByNumber(texts) : texts.map((_, i) => ({ head: null, items: [i] }))) {
      if (group.head === null) {
        rows.push(...group.items.map((i) => button(moves[i], i, texts[i], "")));
        continue;
      }
      rows.push(
        el(
          "div",
          { class: "move-group", role: "group", "aria-label": group.head },
          el("span", { class: "move-group-label", "aria-hidden": "true" }, `${group.head}:`),
          el("span", { class: "move-group-chips" }, group.items.map((i) => button(moves[i], i, texts[i].slice(group.head.length).trim(), " chip"))),
        ),
      );
    }
    const actions = $("actions");
    actions.classList.toggle("long", long);
    actions.replaceChildren(...rows);
  }

  /** A move list longer than this folds its numbered moves (showMoves). */
  const LONG_MOVE_LIST = 12;

  /**
   * The button text of each move: its sentence, and where several moves read the same, what
   * tells them apart: the places only that move concerns ("hand card 2", "square 7"), else its
   * code.
   */
  function distinctTexts(moves) {
    const text = (m) => m.text || m.label;
    const count = {};
    for (const m of moves) count[text(m)] = (count[text(m)] || 0) + 1;
    return moves.map((m) => {
      if (count[text(m)] < 2) return text(m);
      const twins = moves.filter((o) => o !== m && text(o) === text(m));
      const own = (m.places || []).filter((p) => twins.every((o) => !o.keys.includes(placeKey(p))));
      const words = [...new Set(own.map(placeWords))];
      return `${text(m)} (${words.length ? words.join(", ") : m.label})`;
    });
  }

  /** A place in words, as the move sentences name them: "hand card 2" (counted from 1), "square 7". */
  function placeWords(p) {
    const zone = String(p.zone).replace(/^[\w-]+:/, ""); // an AMALOGS table's "table:hand" is a hand
    if (p.index === null || p.index === undefined) return pretty(zone);
    return zone === "hand" ? `hand card ${p.index + 1}` : `${pretty(zone)} ${p.index}`;
  }

  /**
   * The runs of 3 or more texts that are the same but for a closing number, as {head, items}
   * (head: the shared beginning, items: the texts' indexes); every other text alone, head null.
   */
  function foldByNumber(texts) {
    const heads = texts.map((t) => {
      const m = /^(.*\D)\s*\d+$/.exec(t);
      return m ? m[1].trim() : null;
    });
    const size = {};
    for (const h of heads) if (h !== null) size[h] = (size[h] || 0) + 1;
    const groups = [];
    const byHead = {};
    texts.forEach((_, i) => {
      const h = heads[i];
      if (h === null || size[h] < 3) groups.push({ head: null, items: [i] });
      else if (byHead[h]) byHead[h].items.push(i);
      else groups.push((byHead[h] = { head: h, items: [i] }));
    });
    return groups;
  }

  function showResult(g) {
    const over = $("gameover");
    if (g.done && g.result) {
      const word = { win: "won", loss: "lost", draw: "drew" }[g.result.outcome] || g.result.outcome;
      $("gameover-title").textContent = `You ${word}`;
      const reason = [g.result.reason, g.result.truncated ? "(turn limit)" : ""].filter(Boolean).join(" ");
      $("gameover-reason").textContent = reason ? `— ${reason}` : "";
      over.className = `gameover ${g.result.outcome}`;
      over.hidden = false;
      $("download-replay").href = gamePath("/replay");
    } else {
      over.hidden = true;
    }
  }

  /**
   * What was played since the person's last decision, in words, above the prompt: folded to its
   * newest lines (scrolled to the end), the rest a "show all" away.
   */
  function showRecent(g) {
    const list = $("recent-list");
    const items = (g.recent || []).filter((r) => r.who !== "you");
    list.replaceChildren(
      ...items.map((r) => {
        const foe = r.who === "opponent";
        const li = el("li", { class: foe ? "foe" : "" }, el("b", {}, `${foe ? "The opponent" : capital(r.who)}: `), foe ? withoutSubject(r.text) : r.text);
        const keys = (r.places || []).map(placeKey);
        li.addEventListener("mouseenter", () => markPlaces(keys, "hover"));
        li.addEventListener("mouseleave", () => markPlaces([], "hover"));
        return li;
      }),
    );
    $("recent").hidden = items.length === 0;
    showRecentFold(items.length);
  }

  /** "The opponent sets ..." as "sets ...": the line says "The opponent: " already. */
  const withoutSubject = (text) => String(text).replace(/^The opponent's /, "its ").replace(/^The opponent /, "");

  /** The last moves folded (the newest lines) or whole, and the toggle between the two. */
  function showRecentFold(n) {
    const box = $("recent");
    const list = $("recent-list");
    const toggle = $("recent-toggle");
    const folded = box.classList.contains("folded");
    list.scrollTop = list.scrollHeight; // the newest in sight
    toggle.hidden = folded && list.scrollHeight <= list.clientHeight + 1;
    toggle.textContent = folded ? `show all ${n}` : "show fewer";
    toggle.setAttribute("aria-expanded", String(!folded));
  }

  /** The log: the English lines of the game, newest at the bottom. */
  function showLog(g) {
    const log = $("log");
    const lines = g.log || [];
    const shown = log.children.length;
    const base = log.dataset.total ? Number(log.dataset.total) : 0;
    const same =
      shown > 0 && lines.length >= base && log.lastElementChild.textContent === String(lines[base - 1] ?? "");
    if (!same) {
      log.replaceChildren();
      log.dataset.total = "0";
    }
    const from = Number(log.dataset.total || 0);
    const keep = 1000;
    for (const line of lines.slice(Math.max(from, lines.length - keep))) log.append(el("li", {}, String(line)));
    while (log.children.length > keep) log.firstElementChild.remove();
    log.dataset.total = String(lines.length);
    log.scrollTop = log.scrollHeight;
  }

  function showHint() {
    const box = $("hint-box");
    const h = app.hint;
    if (app.hintWaiting) {
      box.replaceChildren(el("span", { class: "spinner" }), " Looking for a good move…");
      box.hidden = false;
    } else if (h && app.game && h.moves === app.game.moves) {
      const pct = Math.round(100 * h.win_chance);
      box.replaceChildren(
        el("b", {}, "Hint: "),
        h.text,
        el("span", { class: "muted" }, ` — about ${pct}% to win over ${h.rollouts} rollouts (${h.level})`),
      );
      box.hidden = false;
    } else {
      box.hidden = true;
    }
  }

  /** Draw the game object `g`: the board, the moves, the log, the controls. */
  function showGame(g) {
    app.game = g;
    if (app.hint && app.hint.moves !== g.moves) app.hint = null;
    const legalNow = new Set(legalMoves().flatMap((m) => m.keys));
    app.selection = app.selection.filter((k) => legalNow.has(k));
    showHead(g);
    showDecision(g);
    showMoves(g);
    showResult(g);
    showRecent(g);
    showLog(g);
    showHint();
    drawBoard();
    showControls(g);
    showMoveList();
  }

  /** Draw the board of the current game and mark its places. */
  function drawBoard() {
    const g = app.game;
    if (!g) return;
    const target = $("view");
    const back = app.lookback; // looking back: the board after an earlier move, for reading only
    const view = back ? back.view : g.view;
    target.replaceChildren(drawView(view, { details: $("details").checked, seat: back ? back.seat : g.seat, seats: g.seats || [] }));
    decorate();
    fitLayout();
  }

  // ------------------------------------------------ the move list: every move, and the board after it
  /** Fill the move list (when open) with every move so far, as the person read it. */
  async function showMoveList() {
    const g = app.game;
    $("moves-count").textContent = g ? `(${g.moves ?? 0})` : "";
    if (!g || !$("moves-panel").open) return;
    if (app.moveListAt === `${g.game_id}:${g.moves}`) return;
    app.moveListAt = `${g.game_id}:${g.moves}`;
    try {
      const { moves } = await api("GET", gamePath("/moves"));
      const who = (m) => (m.who === "opponent" ? "The AI" : "You");
      $("move-list").replaceChildren(
        ...moves.map((m, i) => {
          const b = el("button", { type: "button", class: "link", "data-position": String(i + 1) }, `${who(m)}: ${m.text}`);
          b.addEventListener("click", () => lookBack(i + 1));
          return el("li", {}, b);
        }),
      );
      markLookback();
    } catch (exc) {
      app.moveListAt = null;
      showError(exc.message);
    }
  }

  /** Show the board after the game's first `k` moves (0: the start); the game goes on unchanged. */
  async function lookBack(k) {
    const g = app.game;
    if (!g || k < 0 || k > (g.moves ?? 0)) return;
    try {
      const pos = await api("GET", gamePath(`/positions/${k}`));
      if (!app.game || app.game.game_id !== g.game_id) return;
      app.lookback = { k, view: pos.view, seat: pos.seat, moves: pos.moves };
      clearSelection();
      $("lookback").hidden = false;
      $("lookback-text").textContent = k === 0 ? `The start of the game (of ${pos.moves} moves)` : `After move ${k} of ${pos.moves}`;
      drawBoard();
      showControls(app.game);
      markLookback();
    } catch (exc) {
      showError(exc.message);
    }
  }

  /** Back from looking back to the game as it stands. */
  function endLookback() {
    if (!app.lookback) return;
    app.lookback = null;
    $("lookback").hidden = true;
    drawBoard();
    if (app.game) showControls(app.game);
    markLookback();
  }

  function markLookback() {
    const k = app.lookback ? app.lookback.k : -1;
    for (const b of document.querySelectorAll("#move-list button")) b.classList.toggle("current", Number(b.dataset.position) === k);
  }

  // ------------------------------------------------ the game on one screen (wide screens)
  // The side panel (prompt, moves) and the board share one window-high row (style.css, "the
  // game's layout"): #game-body reaches from its top to the window's bottom, and the board is
  // zoomed out until the whole of it shows, down to MIN_ZOOM, under which it would not read;
  // a board bigger still scrolls within its column, kept where the person's own hand shows.
  const WIDE = window.matchMedia("(min-width: 900px)");
  const MIN_ZOOM = 0.7;

  function fitLayout() {
    if (!app.game || $("game").hidden) return;
    const body = $("game-body");
    const panel = getComputedStyle($("game"));
    const below = parseFloat(panel.paddingBottom) + parseFloat(panel.borderBottomWidth) + 6;
    const top = body.getBoundingClientRect().top + window.scrollY; // from the page's top
    body.style.setProperty("--fit-h", `${Math.floor(window.innerHeight - top - below)}px`);
    fitBoard();
  }

  /** Whether the board shows whole in its column. */
  function boardFits() {
    const view = $("view");
    return view.scrollHeight <= view.clientHeight + 1 && view.scrollWidth <= view.clientWidth + 1;
  }

  /**
   * The board's zoom: the largest (up to 1) at which it fits, found by halving; MIN_ZOOM if none.
   * Most redraws fit at the zoom of the one before, which is tried (with a step larger) first.
   */
  function fitBoard() {
    const board = $("view").firstElementChild;
    if (!board) return;
    const fitsAt = (z) => {
      board.style.zoom = z >= 1 ? "" : String(z);
      return boardFits();
    };
    let z;
    if (!WIDE.matches) z = 1; // a narrow screen: drawn as it is, a wide board scrolls sideways
    else if (app.zoom < 1 && fitsAt(app.zoom) && !fitsAt(Math.min(1, app.zoom + 0.02))) z = app.zoom;
    else if (fitsAt(1)) z = 1;
    else {
      let lo = MIN_ZOOM;
      let hi = 1;
      if (fitsAt(lo)) {
        for (let i = 0; i < 6; i++) {
          const mid = (lo + hi) / 2;
          if (fitsAt(mid)) lo = mid;
          else hi = mid;
        }
      }
      z = lo;
    }
    fitsAt(z);
    app.zoom = z;
    keepHandInSight();
  }

  /** A board that scrolls within its column is scrolled (as little as needed) to show the person's own hand. */
  function keepHandInSight() {
    const view = $("view");
    const hand = ownHandNodes().map((n) => n.getBoundingClientRect());
    if (!hand.length || view.scrollHeight <= view.clientHeight + 1) return;
    const box = view.getBoundingClientRect();
    const bottom = Math.max(...hand.map((r) => r.bottom));
    const top = Math.min(...hand.map((r) => r.top));
    if (bottom > box.bottom - 4) view.scrollTop += bottom - box.bottom + 8;
    else if (top < box.top + 4) view.scrollTop -= box.top - top + 8;
  }

  /**
   * The person's own hand as drawn: the places "hand/<seat>/<i>" of the person's seats, and on a
   * table that a board draws inside itself (AMALOGS: "table:hand/<seat>/<i>", "side:..."), those
   * of the person's seat there (the view's board.core.seat).
   */
  function ownHandNodes() {
    const g = app.game;
    const seats = new Set((g.seats || []).map(String));
    const core = g.view?.board?.core;
    return [...$("view").querySelectorAll("[data-place]")].filter((n) => {
      const m = /^(?:([\w-]+):)?hand\/(\d+)\/\d+$/.exec(n.dataset.place);
      if (!m || !n.getClientRects().length) return false;
      return m[1] ? !!core && String(core.seat) === m[2] : seats.has(m[2]);
    });
  }

  /** Mark the board's places: legal, selected, changed, hinted. */
  function decorate() {
    const root = $("view");
    const g = app.game;
    const moves = canMove() ? legalMoves() : [];
    const sel = app.selection;
    const open = sel.length ? moves.filter((m) => sel.every((k) => m.keys.includes(k))) : moves;
    const legal = new Set(open.flatMap((m) => m.keys));
    const changed = new Set();
    if (app.baseline) {
      const now = placeTexts(root);
      for (const k of changedPlaces(app.baseline, now)) changed.add(k);
      for (const r of g.recent || []) if (r.who === "opponent") for (const p of r.places || []) changed.add(placeKey(p));
    }
    const hinted = new Set(app.hint && app.hint.moves === g.moves ? (app.hint.places || []).map(placeKey) : []);
    for (const node of root.querySelectorAll("[data-place]")) {
      const k = node.dataset.place;
      node.classList.toggle("legal", legal.has(k) && !sel.includes(k));
      node.classList.toggle("selected", sel.includes(k));
      node.classList.toggle("changed", changed.has(k));
      node.classList.toggle("hinted", hinted.has(k));
    }
    keyboardPlaces(root, new Set([...legal, ...sel]));
    const candidates = new Set(sel.length ? open.map((m) => m.index) : []);
    for (const b of document.querySelectorAll("#actions button.action")) {
      const i = Number(b.dataset.index);
      b.classList.toggle("candidate", candidates.has(i));
      b.classList.toggle("hinted", !!(app.hint && app.hint.moves === g.moves && app.hint.index === i));
    }
    $("select-note").hidden = sel.length === 0;
  }

  // ---------------------------------------- keyboard access to the board's places (a11y) {
  // A place that can be clicked now (legal or selected) is in the tab order, and a button to
  // assistive technology where it holds no other control (a card's "i" button, a nested place);
  // Enter or Space on it is a click. When the board is redrawn (the move played, the AI's
  // answer), a keyboard focus that was on the board comes back: to the same place if it can
  // still be clicked, else to the first one that can.
  const FOCUSABLE = "button, summary, a[href], input, select, textarea, [tabindex]";
  let boardFocus = null; // the focused place's key ("" for another control on the board); null: off the board

  function keyboardPlaces(root, reachable) {
    const nodes = [...root.querySelectorAll("[data-place]")];
    const open = nodes.filter((n) => reachable.has(n.dataset.place) && n.tagName !== "DETAILS");
    for (const node of nodes) {
      if (open.includes(node) && node.tagName !== "SUMMARY") node.setAttribute("tabindex", "0");
      else node.removeAttribute("tabindex");
    }
    for (const node of nodes) {
      if (node.hasAttribute("tabindex") && ["DIV", "SPAN"].includes(node.tagName) && !node.querySelector(FOCUSABLE)) {
        node.setAttribute("role", "button");
        node.setAttribute("aria-pressed", String(node.classList.contains("selected")));
      } else if (node.getAttribute("role") === "button") {
        node.removeAttribute("role");
        node.removeAttribute("aria-pressed");
      }
    }
    const lost = !document.activeElement || document.activeElement === document.body;
    if (boardFocus !== null && lost && open.length) (open.find((n) => n.dataset.place === boardFocus) || open[0]).focus();
  }

  document.addEventListener("keydown", (ev) => {
    if ((ev.key !== "Enter" && ev.key !== " ") || ev.repeat || !(ev.target instanceof Element)) return;
    if (!ev.target.matches("#view [data-place][tabindex]")) return;
    ev.preventDefault();
    ev.target.click();
  });
  document.addEventListener("focusin", (ev) => {
    const t = ev.target instanceof Element ? ev.target : null;
    if (!t || !t.closest("#view") || !t.matches(":focus-visible")) boardFocus = null;
    else boardFocus = t.matches("[data-place]") ? t.dataset.place : "";
  });
  // } keyboard access to the board's places

  /**
   * The places whose content differs between the place texts `before` and `now` (placeTexts).
   * Spots new to the board (a table just opened) are left plain. A hand is compared as a whole:
   * a card that only moved along it (one before it was played) is no change; a card new to it is.
   */
  function changedPlaces(before, now) {
    const handOf = (k) => /^((?:[\w-]+:)?hand\/[^/]*)\/\d+$/.exec(k)?.[1] ?? null;
    const hands = {}; // a hand ("hand/0") -> how many of its cards read each text, before
    for (const [k, text] of Object.entries(before)) {
      const h = handOf(k);
      if (h !== null) (hands[h] = hands[h] || new Map()).set(text, (hands[h].get(text) || 0) + 1);
    }
    const out = [];
    for (const [k, text] of Object.entries(now)) {
      const h = handOf(k);
      if (h !== null && hands[h]) {
        const left = hands[h].get(text) || 0;
        if (left > 0) hands[h].set(text, left - 1);
        else out.push(k);
      } else if (k in before && before[k] !== text) out.push(k);
    }
    return out;
  }

  /** Give the places `keys` the class `cls` (and take it from every other place). */
  function markPlaces(keys, cls) {
    const want = new Set(keys);
    for (const node of $("view").querySelectorAll("[data-place]")) node.classList.toggle(cls, want.has(node.dataset.place));
  }

  function clearSelection() {
    if (!app.selection.length) return;
    app.selection = [];
    decorate();
  }

  /** A click on the board: play the move its spot names, or narrow down to the moves through it. */
  function onBoardClick(ev) {
    if (!canMove()) return;
    const legal = new Set(legalMoves().flatMap((m) => m.keys));
    let node = ev.target.closest("[data-place]");
    while (node && !legal.has(node.dataset.place)) node = node.parentElement?.closest("[data-place]");
    if (!node) return;
    const key = node.dataset.place;
    if (app.selection.includes(key)) {
      clearSelection();
      return;
    }
    let keys = [...app.selection, key];
    let found = candidatesFor(keys);
    if (!found.length) {
      keys = [key];
      found = candidatesFor(keys);
    }
    if (!found.length) return;
    if (found.length === 1) {
      act(found[0].index);
      return;
    }
    app.selection = keys;
    const further = found.some((m) => m.keys.some((k) => !keys.includes(k)));
    $("select-note-text").textContent = further
      ? `${found.length} moves start here: click one of the marked spots, or choose a marked move below.`
      : `${found.length} moves fit: choose one of the marked moves below.`;
    decorate();
  }

  // ------------------------------------------- the person's move, and the AI's answers as they come
  function stopPolling() {
    app.pollToken = 0;
  }

  /** Show the AI's moves as they come; with `untilIdle`, stop once it has finished thinking. */
  function startPolling(gid, untilIdle = false) {
    const token = Date.now() + Math.random();
    app.pollToken = token;
    const tick = async () => {
      if (app.pollToken !== token) return;
      try {
        const g = await api("GET", `/api/games/${encodeURIComponent(gid)}`);
        if (app.pollToken !== token || !app.game || app.game.game_id !== gid) return;
        if (g.moves !== app.game.moves || g.ai_thinking !== app.game.ai_thinking) showGame(g);
        if (untilIdle && !g.ai_thinking) {
          stopPolling();
          return;
        }
      } catch (_) {
        /* the move's own answer will tell */
      }
      if (app.pollToken === token) setTimeout(tick, POLL_MS);
    };
    setTimeout(tick, POLL_MS);
  }

  /** Play the legal move `index`, then show the AI's replies (drawn as they come). */
  async function act(index) {
    if (!canMove()) return;
    clearError();
    app.baseline = placeTexts($("view"));
    app.selection = [];
    app.hint = null;
    app.thinking = true;
    setBusy(true);
    showGame(app.game);
    const gid = app.game.game_id;
    startPolling(gid);
    try {
      const g = await api("POST", `/api/games/${encodeURIComponent(gid)}/actions`, { index });
      stopPolling();
      if (app.game && app.game.game_id === gid) app.game = g;
    } catch (exc) {
      stopPolling();
      showError(exc.message);
      await resync(gid);
    } finally {
      stopPolling();
      app.thinking = false;
      setBusy(false);
      if (app.game) showGame(app.game);
    }
  }

  /** Fetch the game again after a refused request (the game is unchanged). */
  async function resync(gid) {
    try {
      const g = await api("GET", `/api/games/${encodeURIComponent(gid)}`);
      if (app.game && app.game.game_id === gid) app.game = g;
    } catch (_) {
      /* the error is shown already */
    }
  }

  /** A request that changes the game (undo, resign): the new game object is drawn. */
  async function change(suffix) {
    if (!app.game || app.busy) return;
    clearError();
    const gid = app.game.game_id;
    setBusy(true);
    try {
      const g = await api("POST", gamePath(suffix));
      app.baseline = null;
      app.selection = [];
      app.hint = null;
      if (app.game && app.game.game_id === gid) app.game = g;
    } catch (exc) {
      showError(exc.message);
      await resync(gid);
    } finally {
      setBusy(false);
      if (app.game) showGame(app.game);
    }
  }

  function undo() {
    change("/undo");
  }

  /** Give the game up, at any time: while the AI thinks, the game ends at once (the AI stops after its move). */
  async function resign() {
    if (!liveGame()) return;
    if (!window.confirm("Resign this game? It counts as a loss.")) return;
    if (!app.busy) {
      change("/resign");
      return;
    }
    clearError();
    try {
      const g = await api("POST", gamePath("/resign"));
      if (app.game && app.game.game_id === g.game_id) showGame(g);
    } catch (exc) {
      showError(exc.message);
    }
  }

  async function hint() {
    if (!canMove() || app.hintWaiting) return;
    clearError();
    const g = app.game;
    app.hintWaiting = true;
    showHint();
    showControls(g);
    try {
      const h = await api("GET", gamePath("/hint"));
      if (app.game && app.game.game_id === g.game_id && app.game.moves === g.moves) {
        app.hint = { ...h, moves: g.moves };
      }
    } catch (exc) {
      showError(exc.message);
    } finally {
      app.hintWaiting = false;
      if (app.game) {
        showHint();
        decorate();
        showControls(app.game);
      }
    }
  }

  async function rematch() {
    if (!app.game || app.busy) return;
    if (liveGame() && !window.confirm("Leave the game in progress for a new one?")) return;
    clearError();
    setBusy(true);
    try {
      enterGame(await api("POST", gamePath("/rematch")));
    } catch (exc) {
      showError(exc.message);
    } finally {
      setBusy(false);
    }
  }

  async function watchReplay() {
    if (!app.game || app.busy) return;
    clearError();
    setBusy(true);
    try {
      const text = await api("GET", gamePath("/replay"), undefined, true);
      app.replayText = text;
      setReplaySeats(text);
      $("replay-seat").value = String(app.game.seat);
      await openReplay();
      $("replay").scrollIntoView({ block: "start" });
    } catch (exc) {
      showError(exc.message);
    } finally {
      setBusy(false);
    }
  }

  // ---------------------------------------------------------------- replays
  function clearReplay() {
    app.replay = null;
    app.replayText = null;
    app.replayAt = 0;
    $("replay-player").hidden = true;
    $("replay-view").replaceChildren();
    $("replay-label").textContent = "";
    $("replay-file").value = "";
  }

  function setReplaySeats(text) {
    let n = 2;
    try {
      const head = JSON.parse(text.split("\n", 1)[0]);
      const env = envOf(head.env);
      if (env) n = env.players;
    } catch (_) {
      /* the server names a bad file */
    }
    const sel = $("replay-seat");
    const keep = sel.value;
    fillSelect(
      sel,
      [...Array(n).keys()].map(String),
      { labels: [...Array(n).keys()].map((k) => `seat ${k}`), extra: [["", "whole board"]] },
    );
    if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
  }

  async function openReplay() {
    if (app.replayText === null) {
      showError("choose a replay file first");
      return;
    }
    clearError();
    const seatText = $("replay-seat").value;
    const rep = await api("POST", "/api/replays", {
      replay: app.replayText,
      seat: seatText === "" ? null : Number(seatText),
    });
    app.replay = rep;
    const slider = $("replay-slider");
    slider.max = String(Math.max(0, rep.positions.length - 1));
    $("replay-player").hidden = false;
    showPosition(0);
  }

  function showPosition(k) {
    const rep = app.replay;
    if (!rep || !rep.positions.length) return;
    k = Math.max(0, Math.min(rep.positions.length - 1, k));
    app.replayAt = k;
    const pos = rep.positions[k];
    $("replay-slider").value = String(k);
    $("replay-prev").disabled = k === 0;
    $("replay-next").disabled = k === rep.positions.length - 1;
    let result = "";
    if (k === rep.positions.length - 1 && rep.result) {
      const r = rep.result;
      result = ` · result ${Array.isArray(r.returns) ? r.returns.join(" / ") : JSON.stringify(r)}${r.reason ? ` (${r.reason})` : ""}`;
    }
    const title = envOf(rep.env)?.title || rep.env;
    $("replay-pos").textContent = `${title} · position ${k} of ${rep.positions.length - 1}${result}`;
    $("replay-label").textContent = k === 0 ? "start" : `${pos.agent ? pos.agent + ": " : ""}${pos.label}`;
    const target = $("replay-view");
    if (pos.view !== undefined) {
      const wrap = el("div", { class: "game-body" });
      const main = el("div", { class: "view" }, drawView(pos.view, { details: $("details").checked, seat: pos.view.seat }));
      const events = el("ol", { class: "log" }, (pos.view.events || []).map((e) => el("li", {}, e)));
      wrap.append(main, el("aside", { class: "log-box" }, el("h3", {}, "Events"), events));
      target.replaceChildren(wrap);
      events.scrollTop = events.scrollHeight;
    } else {
      target.replaceChildren(el("pre", { class: "text" }, pos.text ?? ""));
    }
  }

  async function onReplayFile() {
    const file = $("replay-file").files[0];
    if (!file) return;
    try {
      app.replayText = await file.text();
      setReplaySeats(app.replayText);
      await openReplay();
    } catch (exc) {
      showError(exc.message);
    }
  }

  // ---------------------------------------------------------------- start up
  /** The game named in the page's address (`?game=ID`), shown as it stands; the lobby if there is none. */
  async function resumeFromAddress() {
    const gid = new URLSearchParams(window.location.search).get("game");
    if (!gid) return;
    try {
      const g = await api("GET", `/api/games/${encodeURIComponent(gid)}`);
      app.mode = g.options?.mode || "";
      enterGame(g);
      if (g.ai_thinking) startPolling(g.game_id, true);
    } catch (exc) {
      window.history.replaceState(null, "", window.location.pathname);
      showError(`could not resume the game of this address: ${exc.message}`);
    }
  }

  async function init() {
    $("error-close").addEventListener("click", clearError);
    $("lobby-form").addEventListener("submit", startGame);
    $("env").addEventListener("change", onEnvChange);
    $("mode").addEventListener("change", onModeChange);
    $("new-game").addEventListener("click", newGame);
    $("leave").addEventListener("click", newGame);
    $("undo").addEventListener("click", undo);
    $("hint").addEventListener("click", hint);
    $("resign").addEventListener("click", resign);
    $("rematch").addEventListener("click", rematch);
    $("moves-panel").addEventListener("toggle", showMoveList);
    $("lookback-prev").addEventListener("click", () => app.lookback && lookBack(app.lookback.k - 1));
    $("lookback-next").addEventListener("click", () => app.lookback && lookBack(app.lookback.k + 1));
    $("lookback-exit").addEventListener("click", endLookback);
    $("watch-replay").addEventListener("click", watchReplay);
    $("details").addEventListener("change", () => {
      drawBoard();
      if (app.replay) showPosition(app.replayAt);
    });
    $("help-toggle").addEventListener("click", () => {
      $("help").hidden = !$("help").hidden;
      $("help-toggle").setAttribute("aria-expanded", String(!$("help").hidden));
    });
    $("help-close").addEventListener("click", () => {
      $("help").hidden = true;
      $("help-toggle").setAttribute("aria-expanded", "false");
    });
    $("select-clear").addEventListener("click", clearSelection);
    $("recent-toggle").addEventListener("click", () => {
      $("recent").classList.toggle("folded");
      showRecentFold($("recent-list").children.length);
    });
    // the game fits the window again when the window changes size, and when a board draws part
    // of itself later (AMALOGS fetches a table's board script) and no longer fits
    let refit = 0;
    let refitWhole = false;
    const schedule = (whole) => {
      refitWhole = refitWhole || whole;
      if (refit) return;
      refit = requestAnimationFrame(() => {
        refit = 0;
        const board = $("view").firstElementChild;
        if (refitWhole) fitLayout();
        else if (board && !boardFits() && Number(board.style.zoom || 1) > MIN_ZOOM) fitBoard();
        refitWhole = false;
      });
    };
    window.addEventListener("resize", () => schedule(true));
    new MutationObserver(() => schedule(false)).observe($("view"), { childList: true, subtree: true });
    $("view").addEventListener("click", onBoardClick);
    $("replay-file").addEventListener("change", onReplayFile);
    $("replay-open").addEventListener("click", () => openReplay().catch((exc) => showError(exc.message)));
    $("replay-seat").addEventListener("change", () => {
      if (app.replayText !== null) openReplay().catch((exc) => showError(exc.message));
    });
    $("replay-prev").addEventListener("click", () => showPosition(app.replayAt - 1));
    $("replay-next").addEventListener("click", () => showPosition(app.replayAt + 1));
    $("replay-slider").addEventListener("input", (ev) => showPosition(Number(ev.target.value)));
    document.querySelector('nav a[href="#lobby"]').addEventListener("click", (ev) => {
      ev.preventDefault();
      newGame();
    });
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") {
        clearSelection();
        endLookback();
        return;
      }
      if ($("replay-player").hidden || ev.target.closest("input:not([type=range]), select, textarea")) return;
      const r = $("replay").getBoundingClientRect();
      if (r.top > window.innerHeight || r.bottom < 0) return;
      if (ev.key === "ArrowLeft") showPosition(app.replayAt - 1);
      else if (ev.key === "ArrowRight") showPosition(app.replayAt + 1);
    });
    setBusy(true);
    try {
      app.catalogue = await api("GET", "/api/envs");
      const envs = app.catalogue.envs;
      const names = envs.map((e) => e.name);
      fillSelect($("env"), names, {
        labels: envs.map((e) => e.title || e.name),
        selected: names.includes("medarot_ocg_v1") ? "medarot_ocg_v1" : names[0],
      });
      onEnvChange();
      await resumeFromAddress();
      document.body.dataset.ready = "1";
    } catch (exc) {
      showError(`could not load the games: ${exc.message}`);
    } finally {
      setBusy(false);
    }
  }

  app.markdown = markdown; // for tests and the console
  Object.assign(app, { distinctTexts, foldByNumber, changedPlaces }); // for tests
  document.addEventListener("DOMContentLoaded", init);
})();
