// deckgym play page: the lobby, the board, the replay viewer. Plain JavaScript, no build step.
//
// It talks only to the JSON API of agents/play/server.py and draws any ruleset's per-seat view
// (envs/core/view.py) generically: players, board zones, cards (a dict with "name") and face-down
// cards ({"hidden": true}); a board "squares" list is drawn as a grid when a width is known.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  const app = {
    catalogue: null, // GET /api/envs
    game: null, // the latest game object
    busy: false, // a request is in flight
    replay: null, // POST /api/replays answer
    replayText: null, // the replay file's text
    replayAt: 0,
  };
  window.deckgym = app; // for tests and the console

  // ---------------------------------------------------------------- helpers
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

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

  function showError(msg) {
    $("error-text").textContent = msg;
    $("error").hidden = false;
  }

  function clearError() {
    $("error").hidden = true;
    $("error-text").textContent = "";
  }

  function setBusy(on) {
    app.busy = on;
    document.body.classList.toggle("busy", on);
    $("actions").setAttribute("aria-busy", on ? "true" : "false");
    for (const b of document.querySelectorAll("#actions button.action")) b.disabled = on;
    $("start").disabled = on;
    $("watch-replay").disabled = on;
  }

  // ---------------------------------------------------------------- renderer
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
      if (typeof x === "number" && !skip.has(k)) {
        const printed = card[k];
        const mod = typeof printed === "number" && printed !== x ? (x > printed ? " up" : " down") : "";
        stats.push(el("span", { class: "stat" + mod, title: typeof printed === "number" ? `printed ${printed}` : null }, el("b", {}, pretty(k)), " ", x));
        seen.add(k);
      }
    }
    for (const [k, x] of Object.entries(card)) {
      if (typeof x === "number" && !skip.has(k) && !seen.has(k)) {
        stats.push(el("span", { class: "stat" }, el("b", {}, pretty(k)), " ", x));
      }
    }
    const tags = [];
    for (const [k, x] of Object.entries(wrap)) {
      if (k === "card" || k === "you") continue;
      if (k === "face_up") {
        if (x === false) tags.push("face down");
      } else if (x === true) tags.push(pretty(k));
      else if (Array.isArray(x) && x.length && x.every((y) => typeof y === "string")) tags.push(...x.map(pretty));
      else if (isCard(x) && k !== "card") tags.push(`${pretty(k)}: ${x.name}`);
    }
    for (const [k, x] of Object.entries(card)) {
      if (x === true && !["face_up", "hidden"].includes(k)) tags.push(pretty(k));
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
      card.id !== undefined ? el("div", { class: "tile-id" }, String(card.id)) : null,
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
    const entries = Object.entries(v);
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
      if (["seat", "you", "name"].includes(k)) continue;
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

  /** A per-seat view: the other players on top, the board, then this seat. */
  function renderView(view, target, seats = []) {
    target.replaceChildren();
    if (!isObj(view)) {
      target.append(el("pre", { class: "text" }, JSON.stringify(view, null, 2)));
      return;
    }
    const ctx = { seat: view.seat, seats };
    const players = Array.isArray(view.players) ? view.players : [];
    const status = [
      `turn ${view.turn ?? "?"}`,
      view.done ? "game over" : `seat ${view.to_move} to move`,
      view.decision ? `decision ${view.decision}` : null,
      `viewing as seat ${view.seat}`,
    ].filter(Boolean);
    target.append(el("div", { class: "view-status" }, status.join(" · ")));
    const isMine = (p) => p.you || seats.includes(p.seat);
    const others = players.filter((p) => !isMine(p));
    const mine = players.filter(isMine);
    if (others.length) target.append(el("div", { class: "players others" }, others.map((p) => renderPlayer(p, view, ctx))));
    if (view.board !== undefined) target.append(renderBoard(view.board, ctx));
    if (mine.length) target.append(el("div", { class: "players mine" }, mine.map((p) => renderPlayer(p, view, ctx))));
  }

  // ---------------------------------------------------------------- log
  function resetLog(entries) {
    $("log").replaceChildren();
    appendLog(entries);
  }

  function appendLog(entries, cls = "") {
    const log = $("log");
    for (const e of entries || []) log.append(el("li", { class: cls }, String(e)));
    while (log.children.length > 600) log.firstElementChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  // ---------------------------------------------------------------- lobby
  function currentEnv() {
    return (app.catalogue?.envs || []).find((e) => e.name === $("env").value);
  }

  function fillSelect(select, values, { labels = null, selected = null, extra = [] } = {}) {
    select.replaceChildren();
    for (const [v, text] of extra) select.append(el("option", { value: v }, text));
    values.forEach((v, i) => select.append(el("option", { value: v }, labels ? labels[i] : v)));
    if (selected !== null) select.value = selected;
  }

  function onEnvChange() {
    const env = currentEnv();
    if (!env) return;
    $("env-doc").textContent = `${env.doc.replace(/``/g, "")} · ${env.players} players`;
    $("mode-field").hidden = env.modes.length === 0;
    fillSelect($("mode"), env.modes);
    const opts = $("options-fields");
    opts.replaceChildren();
    for (const [k, values] of Object.entries(env.options || {})) {
      const sel = el("select", { "data-option": k });
      fillSelect(sel, values.map((x) => JSON.stringify(x)), {
        labels: values.map((x) => (Array.isArray(x) ? x.join(" v ") : String(x))),
        extra: [["", "default"]],
      });
      opts.append(el("label", {}, pretty(k), " ", sel));
    }
    onModeChange();
  }

  function deckNames() {
    const env = currentEnv();
    if (!env) return [];
    return env.decks[$("mode").value || ""] || env.decks[""] || [];
  }

  function onModeChange() {
    const names = deckNames();
    for (const id of ["deck-you", "deck-opp"]) {
      fillSelect($(id), names, { extra: [["random", "random"]], selected: "random" });
      $(`${id}-field`).hidden = names.length === 0;
    }
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
      app.game = g;
      app.mode = body.options.mode || "";
      $("lobby").hidden = true;
      $("game").hidden = false;
      resetLog(g.view?.events || g.events || []);
      renderGame(g);
      $("game").scrollIntoView({ block: "start" });
    } catch (exc) {
      showError(exc.message);
    } finally {
      setBusy(false);
    }
  }

  // ---------------------------------------------------------------- game
  function renderGame(g) {
    const view = g.view || {};
    $("game-title").textContent = g.env + (app.mode ? ` · ${app.mode}` : "");
    $("game-meta").textContent = `vs ${g.opponent} · you are seat ${g.seats.join(" & ")} · turn ${view.turn ?? "?"}`;
    const dec = $("decision");
    if (g.done) {
      dec.textContent = "game over";
      dec.className = "decision over";
    } else if (g.your_turn) {
      dec.textContent = `your turn: ${view.decision ?? ""}`;
      dec.className = "decision yours";
    } else {
      dec.textContent = "waiting";
      dec.className = "decision waiting";
    }
    const actions = $("actions");
    actions.replaceChildren(
      ...(g.legal || []).map((o) =>
        el(
          "button",
          { type: "button", class: "action", "data-index": String(o.index), onclick: () => act(o.index, o.label) },
          o.label,
        ),
      ),
    );
    for (const b of actions.querySelectorAll("button.action")) b.disabled = app.busy;
    const over = $("gameover");
    if (g.done && g.result) {
      const word = { win: "won", loss: "lost", draw: "drew" }[g.result.outcome] || g.result.outcome;
      $("gameover-title").textContent = `You ${word}`;
      const reason = [g.result.reason, g.result.truncated ? "(turn limit)" : ""].filter(Boolean).join(" ");
      $("gameover-reason").textContent = reason ? `— ${reason}` : "";
      over.className = `gameover ${g.result.outcome}`;
      over.hidden = false;
    } else {
      over.hidden = true;
    }
    renderView(view, $("view"), g.seats || []);
  }

  async function act(index, label) {
    if (app.busy || !app.game) return;
    clearError();
    setBusy(true);
    try {
      const g = await api("POST", `/api/games/${encodeURIComponent(app.game.game_id)}/actions`, { index });
      app.game = g;
      appendLog([`you: ${label}`], "mine");
      appendLog(g.events || []);
      renderGame(g);
    } catch (exc) {
      showError(exc.message);
    } finally {
      setBusy(false);
    }
  }

  function newGame() {
    $("lobby").hidden = false;
    $("lobby").scrollIntoView({ block: "start" });
  }

  async function watchReplay() {
    if (!app.game || app.busy) return;
    clearError();
    setBusy(true);
    try {
      const text = await api("GET", `/api/games/${encodeURIComponent(app.game.game_id)}/replay`, undefined, true);
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
  function setReplaySeats(text) {
    let n = 2;
    try {
      const head = JSON.parse(text.split("\n", 1)[0]);
      const env = (app.catalogue?.envs || []).find((e) => e.name === head.env);
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
    $("replay-pos").textContent = `${rep.env} · position ${k} of ${rep.positions.length - 1}${result}`;
    $("replay-label").textContent = k === 0 ? "start" : `${pos.agent ? pos.agent + ": " : ""}${pos.label}`;
    const target = $("replay-view");
    if (pos.view !== undefined) {
      const wrap = el("div", { class: "game-body" });
      const main = el("div", { class: "view" });
      renderView(pos.view, main);
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
  async function init() {
    $("error-close").addEventListener("click", clearError);
    $("lobby-form").addEventListener("submit", startGame);
    $("env").addEventListener("change", onEnvChange);
    $("mode").addEventListener("change", onModeChange);
    $("new-game").addEventListener("click", newGame);
    $("watch-replay").addEventListener("click", watchReplay);
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
      if ($("replay-player").hidden || ev.target.closest("input:not([type=range]), select, textarea")) return;
      const r = $("replay").getBoundingClientRect();
      if (r.top > window.innerHeight || r.bottom < 0) return;
      if (ev.key === "ArrowLeft") showPosition(app.replayAt - 1);
      else if (ev.key === "ArrowRight") showPosition(app.replayAt + 1);
    });
    setBusy(true);
    try {
      app.catalogue = await api("GET", "/api/envs");
      const envs = app.catalogue.envs.map((e) => e.name);
      fillSelect($("env"), envs, { selected: envs.includes("medarot_ocg_v0") ? "medarot_ocg_v0" : envs[0] });
      fillSelect($("opponent"), app.catalogue.levels, { selected: app.catalogue.default_level });
      onEnvChange();
      document.body.dataset.ready = "1";
    } catch (exc) {
      showError(`could not load the games: ${exc.message}`);
    } finally {
      setBusy(false);
    }
  }

  document.addEventListener("DOMContentLoaded", init);
})();
