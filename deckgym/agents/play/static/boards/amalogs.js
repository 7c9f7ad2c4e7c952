// AMALOGS board for the deckgym play page. Plain JavaScript, no build step.
//
// Draws one player's view (envs/amalogs/view.py): the 11 x 7 map with both bases and their
// base life, the two spawn areas, every avatar in its team's colour with its card game, AP,
// Guard and whether it has dueled; the acting avatar's duel range and the squares a pending
// Move may reach; the duel under way with its participants and their roles (host, cast, guest,
// champion, defender) and who sits opposite the host: the champion, the defender through a
// stand-in whose life falls as it is hit, the enemy base at the table with its life and hits,
// or nobody; and the running core table, drawn by that card game's own board
// (window.deckgymBoards[<core env>]).
//
// The viewer's team is at the bottom: for team A row 1 is the bottom row, for team B the map
// is turned half a turn. Rows and columns are numbered from 1 as the move sentences name them
// ("row 4, column 3"). Places (envs/amalogs/describe.py): every map square is
// data-place="map//<square>"; the running table's spots keep their own board's keys with
// "table:" before the zone ("table:square//6"); each player's line in the list of players is
// "player/<i>/"; the viewer's own core game between duels is drawn with "side:" keys, which no
// move names.
"use strict";

(() => {
  const boards = (window.deckgymBoards = window.deckgymBoards || {});
  const ROWS = 11;
  const COLS = 7;
  const TEAM_WORD = { A: "team A", B: "team B" };
  const ROLE_WORDS = {
    host: "host: declared the duel",
    champion: "champion: plays the host at the table",
    cast: "cast: an ally of the host in the duel",
    guest: "guest: an enemy of the host in the duel",
    defender: "defender: its stand-in sits opposite the host at the table",
  };
  const PHASE_WORDS = {
    STARTUP_RULESET: "Start-up: choosing card games",
    STARTUP_CORE: "Start-up: first turns of the core games",
    STARTUP_PLACE: "Start-up: placing the avatars",
    META_FIELD: "Commands on the map",
    MOVE_DEST: "Choosing where to move",
    DUEL_CORE: "Duel at the table",
    STRIKE: "The host's strike",
    RESPAWN_RULESET: "Respawn: choosing a new card game",
    RESPAWN_CORE: "Respawn: first turn of the new core game",
    RESPAWN_PLACE: "Respawn: back on the map",
    GAME_OVER: "The match is over",
  };
  // Where this script was loaded from: a core board that is not loaded yet is fetched beside it.
  const HERE = (document.currentScript && document.currentScript.src) || "";
  const BASE_URL = HERE ? HERE.replace(/[^/]*$/, "") : "/static/boards/";
  const loading = {};

  const { el, capital } = window.deckgymDom;

  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const squareName = (s) => `row ${Math.floor(s / COLS) + 1}, column ${(s % COLS) + 1}`;
  const dist = (a, b) =>
    Math.max(Math.abs(Math.floor(a / COLS) - Math.floor(b / COLS)), Math.abs((a % COLS) - (b % COLS)));

  /** How the viewer calls a player: "you (A1)", "ally A0", "enemy B0". */
  function who(view, i) {
    const p = view.players[i];
    if (i === view.seat) return `you (${p.name})`;
    return `${p.ally ? "ally" : "enemy"} ${p.name}`;
  }

  /** A unit for people: a whole number as it is, else at most two decimals (45.5, 1.38). */
  function unitText(x) {
    return Number.isInteger(x) ? String(x) : String(Number(x.toFixed(2)));
  }

  function rulesetInfo(view, id) {
    const r = (view.board.rulesets || {})[id];
    return r || { title: id || "no card game yet", short: id ? id.slice(0, 6) : "", we: "?", range: "?" };
  }

  /** The player who holds control or decides now (the acting avatar), or -1. */
  function actingPlayer(view) {
    const b = view.board;
    if (b.control !== undefined && b.control !== null && b.control >= 0) return b.control;
    return view.to_move >= 0 ? view.to_move : -1;
  }

  /** The enemy base that sits opposite the host (a base at the table), or null. */
  function baseAtTable(view) {
    const d = view.board.duel;
    if (!d || d.proxy !== "base") return null;
    const hostTeam = view.players[d.host].team;
    return view.board.teams.find((t) => t.name !== hostTeam) || null;
  }

  /** Who sits opposite the host in the duel under way, in sentences (as the terminal board says). */
  function seatOne(view) {
    const d = view.board.duel;
    if (!d) return [];
    if (d.champion >= 0) return [`Champion at the table: ${who(view, d.champion)} (the same card game as the host, with its own cards)`];
    if (d.proxy === "guest" && d.defender >= 0) {
      const i = d.defender;
      const verb = i === view.seat ? "defend" : "defends";
      let line = `${capital(who(view, i))} ${verb} through a stand-in with ${d.proxy_life} life`;
      if (d.proxy_start !== null && d.proxy_start !== undefined && d.proxy_life < d.proxy_start) line += ` (it started with ${d.proxy_start})`;
      const lines = [line];
      const host = view.players[d.host];
      const guest = view.players[i];
      const hostInfo = rulesetInfo(view, host.ruleset);
      const unit = hostInfo.stand_in_unit;
      const guestL0 = guest.core && guest.core.nominal;
      if (unit && guestL0) {
        const guestGame = rulesetInfo(view, guest.ruleset).title;
        const loses = i === view.seat ? "you lose" : `${guest.name} loses`;
        lines.push(
          `Life converts by ${hostInfo.title}'s stand-in unit ${unitText(unit)} and ${guestGame}'s nominal life ${guestL0}:` +
            ` when the table ends ${loses} the stand-in's damage, converted, in ${guestGame}`,
        );
      }
      return lines;
    }
    if (d.proxy === "base") {
      const base = baseAtTable(view);
      const life = d.proxy_life !== null && d.proxy_life !== undefined ? d.proxy_life : base ? base.life : "?";
      const per = rulesetInfo(view, view.players[d.host].ruleset).base_unit || 1;
      const cost = per === 1 ? "each successful attack costs it 1 base life" : `every ${unitText(per)} successful attacks cost it 1 base life`;
      return [`Base ${base ? base.name : "?"} is at the table: ${life} life, ${plural(d.base_hits || 0, "hit")} this duel (${cost})`];
    }
    return ["Nobody sits opposite: the opponent's seat is empty"];
  }

  /** What sits at seat 1 of a duel table that no player holds: a stand-in, a base or nobody. */
  function opposite(view) {
    const d = view.board.duel || {};
    if (d.proxy === "guest" && d.defender >= 0) {
      const owner = d.defender === view.seat ? "your" : `${who(view, d.defender)}'s`;
      return `${owner} stand-in (${d.proxy_life} life)`;
    }
    const base = baseAtTable(view);
    if (base) return `base ${base.name} (${d.proxy_life !== null && d.proxy_life !== undefined ? d.proxy_life : base.life} life)`;
    return "an empty seat";
  }

  /** The avatar tile on a map square. */
  function avatarTile(view, i, ctx) {
    const p = view.players[i];
    const r = rulesetInfo(view, p.ruleset);
    const mine = p.ally ? "ally" : "enemy";
    const tip = [
      `${p.name} (${i === view.seat ? "your avatar" : mine}, ${TEAM_WORD[p.team]})`,
      `${r.title}: weight ${p.we}, duel range ${p.range}`,
      `${p.ap} action points (AP)`,
      p.guarding ? "Guarding: a duel it joins as a guest strikes nobody of its team" : "",
      p.dueled ? "Has dueled this team turn" : "",
      p.ended ? "Has ended its part of the turn" : "",
      p.role ? ROLE_WORDS[p.role] : "",
      p.core ? `Core game: life ${p.core.life}, hand ${p.core.hand}, deck ${p.core.deck}, units ${p.core.units}` : "",
    ]
      .filter(Boolean)
      .join("\n");
    const cls = [
      "amalogs-avatar",
      `amalogs-team-${p.team}`,
      i === view.seat ? "amalogs-you" : "",
      i === actingPlayer(view) ? "amalogs-acting" : "",
      p.guarding ? "amalogs-guarding" : "",
      p.dueled ? "amalogs-dueled" : "",
    ]
      .filter(Boolean)
      .join(" ");
    const flags = [];
    if (p.guarding) flags.push(el("span", { class: "amalogs-flag amalogs-flag-guard", title: "Guarding" }, "Guard"));
    if (p.dueled) flags.push(el("span", { class: "amalogs-flag amalogs-flag-dueled", title: "Has dueled this team turn" }, "dueled"));
    return el(
      "div",
      { class: cls, title: tip },
      el("div", { class: "amalogs-avatar-name" }, p.name),
      el("div", { class: "amalogs-avatar-game" }, r.short),
      el("div", { class: "amalogs-avatar-ap" }, `${p.ap} AP`),
      flags.length ? el("div", { class: "amalogs-flags" }, flags) : null,
      p.role ? el("div", { class: `amalogs-role amalogs-role-${p.role}`, title: ROLE_WORDS[p.role] || p.role }, p.role) : null,
      ctx.details ? el("div", { class: "amalogs-detail" }, `player ${i}`) : null,
    );
  }

  /** The 11 x 7 map, the viewer's team at the bottom. */
  function drawMap(view, ctx) {
    const b = view.board;
    const me = view.players[view.seat];
    const flip = me.team === "B"; // team B sees the map turned half a turn
    const spawnA = new Set(b.map.spawn.A);
    const spawnB = new Set(b.map.spawn.B);
    const dest = new Set(b.map.move_destinations || []);
    const duelSquares = new Set(b.duel ? b.duel.squares : []);
    const bases = {};
    for (const t of b.teams) bases[t.square] = t;
    const occupant = {};
    view.players.forEach((p, i) => {
      if (p.on_map && p.square !== null && p.square !== undefined) occupant[p.square] = i;
    });
    const acting = actingPlayer(view);
    const actor = acting >= 0 ? view.players[acting] : null;
    const range = new Set();
    if (actor && actor.on_map && b.phase !== "GAME_OVER") {
      for (let s = 0; s < ROWS * COLS; s++) if (dist(s, actor.square) <= actor.range) range.add(s);
    }
    if (b.duel) for (const t of b.teams) if (b.duel.bases.includes(t.name)) duelSquares.add(t.square);
    const tableBase = baseAtTable(view);

    const rows = flip ? [...Array(ROWS).keys()] : [...Array(ROWS).keys()].reverse();
    const cols = flip ? [...Array(COLS).keys()].reverse() : [...Array(COLS).keys()];
    const grid = el("div", { class: "amalogs-map", role: "group", "aria-label": "The map" });
    const colLabels = () => [el("div", { class: "amalogs-corner" }), ...cols.map((c) => el("div", { class: "amalogs-label" }, `${c + 1}`)), el("div", { class: "amalogs-corner" })];
    grid.append(...colLabels());
    for (const r of rows) {
      grid.append(el("div", { class: "amalogs-label", title: `row ${r + 1}` }, `${r + 1}`));
      for (const c of cols) {
        const s = r * COLS + c;
        const base = bases[s];
        const cls = ["place", "amalogs-cell"];
        if (spawnA.has(s)) cls.push("amalogs-spawn-A");
        if (spawnB.has(s)) cls.push("amalogs-spawn-B");
        if (range.has(s)) cls.push("amalogs-in-range");
        if (dest.has(s)) cls.push("amalogs-dest");
        if (duelSquares.has(s)) cls.push("amalogs-in-duel");
        if (base) cls.push("amalogs-base", `amalogs-base-${base.name}`);
        const atTable = !!(base && tableBase && tableBase.name === base.name);
        if (atTable) cls.push("amalogs-base-at-table");
        const tip = [squareName(s)];
        if (base) tip.push(`Base ${base.name} (${base.name === me.team ? "your team's" : "the enemy's"}): base life ${base.life}`);
        if (atTable) tip.push("At the table: each successful attack costs it 1 base life");
        if (spawnA.has(s) || spawnB.has(s)) tip.push(`Spawn area of team ${spawnA.has(s) ? "A" : "B"}`);
        if (range.has(s)) tip.push(`In ${acting === view.seat ? "your" : actor.name + "'s"} duel range`);
        if (dest.has(s)) tip.push("A Move can end here");
        const cell = el("div", { class: cls.join(" "), "data-place": `map//${s}`, title: tip.join("\n") });
        if (base) {
          cell.append(
            el("div", { class: "amalogs-base-name" }, `Base ${base.name}`),
            el("div", { class: "amalogs-base-life", title: "base life" }, `${base.life}`),
          );
          if (atTable) cell.append(el("div", { class: "amalogs-base-table", title: "at the table: each successful attack costs it 1 base life" }, "at table"));
        }
        if (occupant[s] !== undefined) cell.append(avatarTile(view, occupant[s], ctx));
        if (ctx.details) cell.append(el("div", { class: "amalogs-detail amalogs-sq" }, `${s}`));
        grid.append(cell);
      }
      grid.append(el("div", { class: "amalogs-label", title: `row ${r + 1}` }, `${r + 1}`));
    }
    grid.append(...colLabels());
    return grid;
  }

  /** The match's numbers: team turn, base lives, who acts, the dice. */
  function drawHeader(view) {
    const b = view.board;
    const me = view.players[view.seat];
    const lives = b.teams.map((t) =>
      el(
        "div",
        { class: `amalogs-life amalogs-team-${t.name}${t.acting ? " amalogs-acting-team" : ""}` },
        el("span", { class: "amalogs-life-name" }, `Base ${t.name}${t.name === me.team ? " (yours)" : ""}`),
        el("meter", { min: "0", max: "36", value: String(Math.max(0, t.life)), title: `base life ${t.life} of 36 to win` }),
        el("span", { class: "amalogs-life-value" }, `${t.life}`),
      ),
    );
    const bits = [
      `Team turn ${b.team_turn} of ${b.max_team_turns}`,
      b.acting ? `team ${b.acting} acts${b.acting === me.team ? " (your team)" : ""}` : "",
      PHASE_WORDS[b.phase] || "",
      b.dice && (b.dice[0] || b.dice[1]) ? `last dice ${b.dice[0]} + ${b.dice[1]}` : "",
      b.move_allowance ? `move up to ${b.move_allowance} squares` : "",
      b.winner ? (b.winner === "draw" ? "a draw" : `team ${b.winner} won`) : "",
    ].filter(Boolean);
    return el("div", { class: "amalogs-header" }, el("div", { class: "amalogs-lives" }, lives), el("div", { class: "amalogs-status" }, bits.join(" · ")));
  }

  /** One line per player: team, card game, numbers, flags. */
  function drawRoster(view, ctx) {
    const me = view.players[view.seat];
    const order = view.players.map((p, i) => i).sort((a, b) => {
      const ta = view.players[a].team === me.team ? 1 : 0;
      const tb = view.players[b].team === me.team ? 1 : 0;
      return ta - tb || a - b; // the enemy team first, the viewer's team last (at the bottom)
    });
    const rows = order.map((i) => {
      const p = view.players[i];
      const r = rulesetInfo(view, p.ruleset);
      const where = p.on_map ? squareName(p.square) : p.exited ? "left the map (comes back after the team turn)" : "not on the map yet";
      const core = p.core ? `life ${p.core.life} · hand ${p.core.hand} · deck ${p.core.deck} · units ${p.core.units}` : "";
      const flags = [p.guarding ? "Guarding" : "", p.dueled ? "dueled" : "", p.ended ? "ended" : "", p.role || ""].filter(Boolean);
      return el(
        "div",
        { class: `place amalogs-player amalogs-team-${p.team}${i === view.seat ? " amalogs-you" : ""}`, "data-place": `player/${i}/` },
        el("span", { class: "amalogs-player-name" }, who(view, i)),
        el("span", { class: "amalogs-player-game", title: `weight ${p.we}, duel range ${p.range}` }, p.ruleset ? `${r.title} (weight ${p.we}, range ${p.range})` : "no card game yet"),
        el("span", { class: "amalogs-player-ap" }, `${p.ap} AP`),
        el("span", { class: "amalogs-player-where" }, where),
        core ? el("span", { class: "amalogs-player-core" }, core) : null,
        flags.length ? el("span", { class: "amalogs-player-flags" }, flags.join(", ")) : null,
        ctx.details ? el("span", { class: "amalogs-detail" }, `player ${i}, slot ${p.team_slot}`) : null,
      );
    });
    return el("div", { class: "amalogs-roster" }, rows);
  }

  /** The duel under way: host, who sits opposite (champion, defender's stand-in, base, nobody), casts, guests, bases, strike value. */
  function drawDuel(view) {
    const d = view.board.duel;
    if (!d) return null;
    const host = view.players[d.host];
    const r = rulesetInfo(view, host.ruleset);
    const names = (list) => list.map((i) => who(view, i)).join(", ");
    const defender = d.defender === undefined ? -1 : d.defender;
    const others = d.guests.filter((g) => g !== d.champion && g !== defender);
    const tableBase = baseAtTable(view);
    const baseWords = d.bases.map((b) => {
      if (tableBase && b === tableBase.name) return `${b} (at the table)`;
      if (b === host.team) return `${b} (the host's own)`;
      return `${b} (defended, cannot be attacked)`;
    });
    const [first, ...rest] = seatOne(view);
    let seat = null;
    if (first) {
      const kind = d.champion >= 0 ? "champion" : d.proxy || "empty";
      seat = el("div", { class: `amalogs-duel-seat amalogs-duel-seat-${kind}` }, first);
      if (d.proxy && d.proxy_start) {
        seat.append(
          el("meter", { class: "amalogs-proxy-life", min: "0", max: String(Math.max(d.proxy_start, d.proxy_life || 0)), value: String(Math.max(0, d.proxy_life || 0)), title: `${d.proxy_life} life left of ${d.proxy_start}` }),
        );
      }
    }
    const lines = [
      el("div", { class: "amalogs-duel-title" }, `Duel: ${r.title}`),
      el("div", {}, `Host: ${who(view, d.host)}`),
      seat,
      ...rest.map((t) => el("div", { class: "amalogs-duel-note" }, t)),
      d.casts.length ? el("div", {}, `Casts: ${names(d.casts)}`) : null,
      others.length ? el("div", {}, `Other guests: ${names(others)}`) : null,
      d.bases.length ? el("div", {}, `Bases in the duel: ${baseWords.join(", ")}`) : null,
      el("div", {}, `Strike value ${d.strike} (a strike hits only the other guests, never a base)`),
      d.lost.length ? el("div", {}, `Lost their game: ${names(d.lost)}`) : null,
      d.struck && d.struck.length ? el("div", {}, `Struck: ${names(d.struck)}`) : null,
    ];
    return el("div", { class: "amalogs-duel" }, lines);
  }

  /** Fetch a core board's script and style once; call back when it is there. */
  function loadBoard(env, done) {
    if (boards[env]) return done();
    const name = env.replace(/_v\d+$/, "");
    if (!loading[env]) {
      loading[env] = [];
      const css = el("link", { rel: "stylesheet", href: `${BASE_URL}${name}.css` });
      const js = el("script", { src: `${BASE_URL}${name}.js` });
      js.addEventListener("load", () => loading[env].splice(0).forEach((f) => f()));
      document.head.append(css, js);
    }
    loading[env].push(done);
  }

  /** A core view in the shape of the core ruleset's own per-seat view. */
  function coreView(core) {
    return {
      env: core.env,
      seat: core.seat,
      turn: core.turn,
      to_move: core.to_move,
      decision: core.decision,
      done: !!core.done,
      result: null,
      players: core.players,
      board: core.board,
      events: core.events || [],
      records: core.records || [],
    };
  }

  /** Prefix the place keys of a core board so they do not clash with the map's. */
  function prefixPlaces(node, prefix) {
    const all = node.matches && node.matches("[data-place]") ? [node, ...node.querySelectorAll("[data-place]")] : [...node.querySelectorAll("[data-place]")];
    for (const e of all) e.setAttribute("data-place", prefix + e.getAttribute("data-place"));
    return node;
  }

  /** A plain summary for a core game whose board is not available. */
  function coreSummary(view, core) {
    const rows = (core.players || []).map((p, j) => {
      const who_ = p.player >= 0 ? who(view, p.player) : p.proxy ? opposite(view) : "empty seat";
      const bits = Object.entries(p)
        .filter(([k, v]) => ["life", "hp", "hand", "hand_count", "deck", "units"].includes(k) && typeof v === "number")
        .map(([k, v]) => `${k.replace("_count", "")} ${v}`);
      const hand = (p.hand_cards || (Array.isArray(p.hand) ? p.hand : [])).map((c) => c.name).filter(Boolean);
      return el("div", {}, `Seat ${j + 1}, ${who_}: ${bits.join(", ")}${hand.length ? " · hand: " + hand.join(", ") : ""}`);
    });
    return el("div", { class: "amalogs-core-summary" }, rows);
  }

  /** The core table (or the viewer's own core game), drawn by its ruleset's own board. */
  function drawCore(view, ctx) {
    const b = view.board;
    const core = b.core;
    const table = b.table;
    const box = el("div", { class: "amalogs-core" });
    if (table && (!core || core.source !== "table")) {
      const seats = table.seats.filter((p) => p >= 0).map((p) => who(view, p));
      const what = table.kind === "duel" ? `${seats.join(" against ")}${table.seats[1] < 0 ? ` against ${opposite(view)}` : ""} at the table` : `${seats[0]} plays the first turn of a new core game`;
      box.append(el("div", { class: "amalogs-core-title" }, `${rulesetInfo(view, table.ruleset).title}: ${what}`));
    }
    if (!core) return box.childNodes.length ? box : null;
    const atTable = core.source === "table";
    let title;
    if (atTable && b.duel && b.duel.proxy && core.seat === 0) title = `The duel table: ${core.title}, against ${opposite(view)}`;
    else if (atTable && b.duel) title = `The duel table: ${core.title}`;
    else if (atTable) title = `First turn of your new ${core.title} game`;
    else if (b.duel && b.duel.defender === view.seat) title = `Your core game: ${core.title} (your stand-in is at the table)`;
    else title = `Your core game: ${core.title} (between duels)`;
    const prefix = atTable ? "table:" : "side:";
    const holder = el("div", { class: `amalogs-core-board amalogs-core-${atTable ? "table" : "side"}` });
    const draw = () => {
      const fn = boards[core.env];
      holder.replaceChildren();
      if (typeof fn === "function") {
        try {
          holder.append(prefixPlaces(fn(coreView(core), ctx), prefix));
          return;
        } catch (err) {
          holder.append(el("div", { class: "amalogs-note" }, "This table could not be drawn; its summary:"));
        }
      }
      holder.append(coreSummary(view, core));
    };
    if (boards[core.env]) draw();
    else {
      holder.append(coreSummary(view, core));
      loadBoard(core.env, draw);
    }
    const section = atTable ? el("div", { class: "amalogs-core-section" }) : el("details", { class: "amalogs-core-section" });
    section.append(el(atTable ? "div" : "summary", { class: "amalogs-core-title" }, title), holder);
    box.append(section);
    return box;
  }

  function drawLegend(view) {
    const me = view.players[view.seat];
    return el(
      "div",
      { class: "amalogs-legend" },
      el("span", { class: "amalogs-key amalogs-key-range" }, "duel range of the acting avatar"),
      el("span", { class: "amalogs-key amalogs-key-dest" }, "where a Move can end"),
      el("span", { class: "amalogs-key amalogs-key-duel" }, "in the duel"),
      el("span", { class: `amalogs-key amalogs-key-spawn-${me.team}` }, "your spawn area"),
      el("span", { class: `amalogs-key amalogs-key-spawn-${me.team === "A" ? "B" : "A"}` }, "enemy spawn area"),
    );
  }

  boards["amalogs_v2"] = function draw(view, ctx) {
    ctx = ctx || {};
    const root = el("div", { class: "amalogs-board" });
    root.append(drawHeader(view));
    const left = el("div", { class: "amalogs-left" }, drawMap(view, ctx), drawLegend(view));
    const right = el("div", { class: "amalogs-right" }, drawRoster(view, ctx), drawDuel(view), drawCore(view, ctx));
    root.append(el("div", { class: "amalogs-main" }, left, right));
    return root;
  };
})();
