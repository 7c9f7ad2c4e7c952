// Medarot OCG table for the deckgym play page. Plain JavaScript, no build step.
//
// Draws one seat's view (envs/medarot_ocg/view.py): the 3x5 board with the viewer's field at
// the bottom (seat 1 sees the grid turned round), each Medarot with its name, type, power /
// armor / speed and its movement arrows drawn as arrows (face-down ones as card backs), the
// acting Medarot and its target marked; around it both players' HP, hands (the opponent's as
// backs), stocks (face-down cards as backs, stored negate charges), masters, MedaForce reserves
// (advance), decks and trashes (which fold open), and the lasting effects in words. Every spot a
// move can concern carries data-place="zone/player/index", the places of
// envs/medarot_ocg/describe.py: square (player empty, 0-14), hand, stock (0-2), master, deck,
// reserve, trash. At an AMALOGS proxy table the opponent is a stand-in (the defender's, or the
// enemy base): its HP and what attacking it does are drawn, and its row is an open row.
//
// Every card the view shows face up has a small "i" button (keyboard and touch alike) that opens
// its text below or above it: kind, power / armor / speed, cost, moves and effects, as the
// tooltip says; a hand card also shows its cost on its face. The text comes from the view alone.
"use strict";

(() => {
  const boards = (window.deckgymBoards = window.deckgymBoards || {});
  /** Which piles a person has folded open, by place key (kept across redraws). */
  const opened = {};

  const { el, key, spot } = window.deckgymDom;

  const TYPE_WORDS = { SHOOTING: "Shooting", MELEE: "Melee", SPECIAL: "Special" };
  const KIND_WORDS = { MEDAROT: "Medarot", MEDAROTER: "Medaroter", MEDACHANGE: "MedaChange" };
  const DIR_WORDS = {
    F: "forward",
    FR: "forward-right",
    R: "right",
    BR: "back-right",
    B: "back",
    BL: "back-left",
    L: "left",
    FL: "forward-left",
  };
  const DIRS = ["F", "FR", "R", "BR", "B", "BL", "L", "FL"];
  /** Screen directions clockwise from up: glyph and cell of a 3x3 grid (row, column). */
  const SCREEN = [
    ["\u2191", 0, 1],
    ["\u2197", 0, 2],
    ["\u2192", 1, 2],
    ["\u2198", 2, 2],
    ["\u2193", 2, 1],
    ["\u2199", 2, 0],
    ["\u2190", 1, 0],
    ["\u2196", 0, 0],
  ];
  const STATUS_WORDS = { DISABLE: "cannot act", ROOT: "cannot move", GUARD: "guard" };

  /** A card's tooltip: name, kind, printed numbers and effects in words. */
  function tooltip(card, details) {
    const lines = [card.name];
    if (card.kind === "MEDAROTER") {
      lines.push(`Medaroter, HP ${card.hp_mod >= 0 ? "+" : ""}${card.hp_mod} as a master`);
    } else {
      lines.push(
        `${KIND_WORDS[card.kind] || card.kind}, ${TYPE_WORDS[card.type] || card.type}` +
          (card.power_form ? " (power form: 1 HP each action)" : ""),
      );
      lines.push(`Power ${card.power}, armor ${card.armor}, speed ${card.speed}, cost ${card.cost}`);
      const arrows = (card.arrows || []).map((d) => DIR_WORDS[d] || d);
      lines.push(`Moves: ${arrows.join(", ") || "none"}`);
    }
    for (const e of card.effects || []) lines.push(e.text);
    if (details) lines.push(`id ${card.id}`);
    return lines.join("\n");
  }

  /** The movement arrows of a Medarot, turned as the viewer sees its owner. */
  function arrowGrid(card, turned) {
    const words = (card.arrows || []).map((d) => DIR_WORDS[d] || d).join(", ");
    const grid = el("div", { class: "ocg-arrows", role: "img", "aria-label": `moves: ${words || "none"}` });
    const cells = [];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) cells.push(el("span", { class: "ocg-arrow" }));
    cells[4].className = "ocg-arrow ocg-arrow-centre";
    for (const d of card.arrows || []) {
      const i = DIRS.indexOf(d);
      if (i < 0) continue;
      const [glyph, r, c] = SCREEN[(i + (turned ? 4 : 0)) % 8];
      cells[3 * r + c].textContent = glyph;
      cells[3 * r + c].classList.add("on");
    }
    grid.append(...cells);
    return grid;
  }

  /** A card back: nothing on it tells which card it is. */
  function back(label, attrs) {
    const extra = attrs || {};
    const cls = `card back ocg-back ${extra.class || ""}`.trim();
    return el("div", { ...extra, class: cls, title: label }, el("span", { text: "face down" }));
  }

  // ------------------------------------------------ card text one tap away (a11y)
  /** A card's "i" button and its text (dom.js cardTexts). */
  const withText = window.deckgymDom.cardTexts("ocg-board");

  /** A face-up Medarot's text: its card, and what it is now. */
  function unitText(sq, ctx) {
    const tip = [tooltip(sq.card, ctx.details)];
    if (sq.transformed && sq.base) tip.push(`MedaChanged from ${sq.base.name}`);
    if (!sq.face_up) tip.push("Face down (only you see it)");
    tip.push(`Now: power ${sq.power}, armor ${sq.armor}, speed ${sq.speed}`);
    if (sq.statuses && sq.statuses.length) tip.push(`Now: ${sq.statuses.map((s) => STATUS_WORDS[s] || s).join(", ")}`);
    return tip.join("\n");
  }

  /** A Medarot on the board (or a back when the viewer may not see it). */
  function unitTile(sq, view, ctx) {
    const me = view.seat;
    const mine = sq.owner === me;
    const act = view.board.action;
    const classes = ["ocg-unit", mine ? "ocg-mine" : "ocg-theirs"];
    if (act && act.square === sq.square) classes.push("ocg-acting");
    if (act && act.target === sq.square) classes.push("ocg-target");
    const marks = [];
    if (act && act.square === sq.square) marks.push(el("span", { class: "ocg-mark ocg-mark-acting", text: "acting" }));
    if (act && act.target === sq.square) marks.push(el("span", { class: "ocg-mark ocg-mark-target", text: "target" }));
    const badges = [];
    if (sq.acted) badges.push("acted");
    if (sq.placed) badges.push("placed this turn");
    for (const s of sq.statuses || []) badges.push(STATUS_WORDS[s] || s.toLowerCase());
    const badgeEls = badges.map((b) => el("span", { class: "ocg-badge", text: b }));
    const owner = mine ? "Your" : "Opponent's";
    if (sq.hidden || !sq.card) {
      return el(
        "div",
        { class: `card back ${classes.join(" ")}`, title: `${owner} face-down Medarot` },
        el("span", { class: "ocg-back-word", text: "face down" }),
        ...marks,
        el("div", { class: "ocg-badges" }, badgeEls),
      );
    }
    const c = sq.card;
    const mod = (now, printed) => (now > printed ? "ocg-up" : now < printed ? "ocg-down" : "");
    if (!sq.face_up) classes.push("ocg-facedown-own");
    if (sq.transformed) classes.push("ocg-changed");
    return el(
      "div",
      { class: `card ${classes.join(" ")} ocg-type-${(c.type || "").toLowerCase()}`, title: unitText(sq, ctx) },
      el("div", { class: "ocg-name", text: c.name }),
      el(
        "div",
        { class: "ocg-type" },
        TYPE_WORDS[c.type] || c.type,
        sq.transformed ? " \u00b7 MedaChange" : "",
        c.power_form ? " (power)" : "",
        !sq.face_up ? " \u00b7 face down" : "",
      ),
      el(
        "div",
        { class: "ocg-stats" },
        el("span", { class: `ocg-pow ${mod(sq.power, c.power)}`, title: "power" }, `P ${sq.power}`),
        el("span", { class: `ocg-arm ${mod(sq.armor, c.armor)}`, title: "armor" }, `A ${sq.armor}`),
        el("span", { class: `ocg-spd ${mod(sq.speed, c.speed)}`, title: "speed" }, `S ${sq.speed}`),
      ),
      arrowGrid(c, !mine),
      ...marks,
      el("div", { class: "ocg-badges" }, badgeEls),
      ctx.details ? el("div", { class: "ocg-detail", text: `${c.id} cost ${c.cost}` }) : null,
    );
  }

  /** The stand-in at seat 1 of an AMALOGS proxy table, in words ("the defender's stand-in"), or "". */
  function proxyName(view) {
    const pl = view.players[1];
    if (!pl || !pl.proxy) return "";
    return pl.proxy === "base" ? "the enemy base" : "the defender's stand-in";
  }

  /** The 3x5 grid: rows top to bottom from the viewer's seat, the viewer's field at the bottom. */
  function grid(view, ctx) {
    const me = view.seat;
    const proxy = proxyName(view);
    const theirs = proxy ? (view.players[1].proxy === "base" ? "Base's row" : "Stand-in's row") : "Opponent's field";
    const squares = view.board.squares || [];
    const rows = me === 1 ? [0, 1, 2] : [2, 1, 0];
    const cols = me === 1 ? [4, 3, 2, 1, 0] : [0, 1, 2, 3, 4];
    const ownRow = me === 1 ? 2 : 0;
    const table = el("div", { class: "ocg-grid", role: "group", "aria-label": "board" });
    for (const r of rows) {
      const label = r === 1 ? "Neutral field" : r === ownRow ? "Your field" : theirs;
      const rowClass = r === 1 ? "ocg-row-neutral" : r === ownRow ? "ocg-row-own" : "ocg-row-enemy";
      table.append(el("div", { class: `ocg-row-label ${rowClass}`, text: label }));
      for (const c of cols) {
        const s = 5 * r + c;
        const sq = squares[s];
        const square = el(
          "div",
          { ...spot("square", null, s, `ocg-square ${rowClass}`), title: proxy && r === 2 && !sq ? `square ${s}: the open row of ${proxy}` : `square ${s}` },
          el("span", { class: "ocg-sqno", text: String(s) }),
          sq ? unitTile(sq, view, ctx) : null,
        );
        const seen = sq && !sq.hidden && sq.card;
        table.append(seen ? withText(square, `${key("square", null, s)}|${sq.card.name}`, sq.card.name, unitText(sq, ctx)) : square);
      }
    }
    return table;
  }

  /** A Medaroter slot (stock or master) as the viewer sees it. */
  function slotTile(slot, zone, player, index, label, view, ctx) {
    const attrs = spot(zone, player, index, `ocg-slot ocg-${zone}`);
    const head = el("div", { class: "ocg-slot-label", text: label });
    if (!slot) return el("div", attrs, head, el("div", { class: "ocg-empty", text: "empty" }));
    let body;
    if (slot.hidden || !slot.card) {
      body = back(`${label}: a face-down Medaroter`);
    } else {
      const c = slot.card;
      const state = [];
      if (!slot.face_up) state.push("face down");
      if (slot.in_use) state.push("in use");
      if (slot.charge) state.push(`${slot.charge} negate charge${slot.charge > 1 ? "s" : ""}`);
      body = el(
        "div",
        { class: `card ocg-roter${slot.face_up ? "" : " ocg-facedown-own"}`, title: tooltip(c, ctx.details) },
        el("div", { class: "ocg-name", text: c.name }),
        state.length ? el("div", { class: "ocg-type", text: state.join(", ") }) : null,
      );
      return withText(el("div", attrs, head, body), `${key(zone, player, index)}|${c.name}`, c.name, tooltip(c, ctx.details));
    }
    return el("div", attrs, head, body);
  }

  /** A pile that folds open (trash, reserve): its count, and its cards when opened. */
  function pile(zone, player, title, cards, ctx) {
    const k = key(zone, player, null);
    const list = el(
      "div",
      { class: "ocg-pile-cards" },
      cards.length
        ? cards.map((c, i) =>
            withText(el("span", { class: "card ocg-mini", title: tooltip(c, ctx.details), text: c.name }), `${k}/${i}|${c.name}`, c.name, tooltip(c, ctx.details), "inline"),
          )
        : el("span", { class: "ocg-empty", text: "empty" }),
    );
    const det = el(
      "details",
      {
        ...spot(zone, player, null, `ocg-pile ocg-${zone}`),
        open: !!opened[k],
        ontoggle: (ev) => {
          opened[k] = ev.target.open;
        },
      },
      el("summary", { text: `${title} (${cards.length})` }),
      list,
    );
    return det;
  }

  /** An AMALOGS stand-in (amalogs D37, D40): HP and an open row, no cards, no decisions. */
  function proxySide(view, p, ctx) {
    const pl = view.players[p];
    const name = proxyName(view);
    const text = String(pl.text || "").replace(/^Seat 1 is /, "");
    return el(
      "section",
      { class: "ocg-side ocg-side-theirs" },
      el(
        "div",
        { class: "ocg-facts" },
        el("span", { class: "ocg-who", text: `Opponent: ${name}` }),
        el("div", { class: "ocg-hp", title: "its life, as HP" }, `HP ${pl.hp}`),
        ctx.details ? el("span", { class: "ocg-detail", text: `seat ${p}` }) : null,
      ),
      el("div", { class: "ocg-type", text: text.charAt(0).toUpperCase() + text.slice(1) }),
      el("div", { class: "ocg-type", text: "Its row is open: an empty square there is a target wherever your Medarot could attack one." }),
    );
  }

  /** One player's side: counts, stock, master, reserve, trash, hand. */
  function side(view, p, ctx) {
    const pl = view.players[p];
    const mine = p === view.seat;
    if (pl && pl.proxy && !mine) return proxySide(view, p, ctx);
    const who = mine ? "You" : "Opponent";
    const hp = el("div", { class: "ocg-hp", title: "HP (medals): every cost is paid with it" }, `HP ${pl.hp}`);
    const facts = [
      el("span", { class: "ocg-who", text: who }),
      hp,
      el("div", { ...spot("deck", p, null, "ocg-deck"), title: "deck" }, `Deck ${pl.deck}`),
      el("span", { class: "ocg-handcount", text: `Hand ${pl.hand_count}` }),
      pl.first ? el("span", { class: "ocg-badge", text: "first player" }) : null,
      pl.master_used ? el("span", { class: "ocg-badge", text: "master used this turn" }) : null,
    ];
    if (ctx.details) facts.push(el("span", { class: "ocg-detail", text: `seat ${p}, mulligans ${pl.mulligans}` }));
    const slots = el(
      "div",
      { class: "ocg-slots" },
      (pl.stock || []).map((s, j) => slotTile(s, "stock", p, j, `Stock ${j + 1}`, view, ctx)),
      "master" in pl ? slotTile(pl.master, "master", p, null, "Master", view, ctx) : null,
    );
    const piles = el(
      "div",
      { class: "ocg-piles" },
      "reserve" in pl ? pile("reserve", p, "MedaForce reserve", pl.reserve || [], ctx) : null,
      pile("trash", p, "Trash", pl.trash || [], ctx),
    );
    let pending = null;
    if (pl.pending) {
      pending = el(
        "div",
        { class: "ocg-pending" },
        "Waiting to be placed: ",
        pl.pending.card
          ? withText(
              el("span", { class: "card ocg-mini", title: tooltip(pl.pending.card, ctx.details), text: pl.pending.card.name }),
              `pending/${p}|${pl.pending.card.name}`,
              pl.pending.card.name,
              tooltip(pl.pending.card, ctx.details),
              "inline",
            )
          : el("span", { class: "card back ocg-mini", title: "a face-down card", text: "a card" }),
      );
    }
    let hand;
    if (mine) {
      hand = el(
        "div",
        { class: "ocg-hand", role: "group", "aria-label": "your hand" },
        (pl.hand || []).map((c, i) =>
          withText(
            el(
              "div",
              { ...spot("hand", p, i, `card ocg-handcard ocg-kind-${(c.kind || "").toLowerCase()}`), title: tooltip(c, ctx.details) },
              el("div", { class: "ocg-name", text: c.name }),
              el(
                "div",
                { class: "ocg-type" },
                c.kind === "MEDAROTER" ? "Medaroter" : `${TYPE_WORDS[c.type] || ""} ${c.kind === "MEDACHANGE" ? "MedaChange" : ""}`,
              ),
              c.kind !== "MEDAROTER"
                ? el("div", { class: "ocg-stats" }, `P ${c.power} \u00b7 A ${c.armor} \u00b7 S ${c.speed}`)
                : null,
              c.kind !== "MEDAROTER"
                ? el("div", { class: "ocg-cost" }, `cost ${c.cost}`, (c.effects || []).length ? " \u00b7 effect" : "")
                : el("div", { class: "ocg-cost" }, `HP ${c.hp_mod >= 0 ? "+" : ""}${c.hp_mod} as master`),
              c.kind !== "MEDAROTER" ? arrowGrid(c, false) : null,
            ),
            `${key("hand", p, i)}|${c.name}`,
            c.name,
            tooltip(c, ctx.details),
          ),
        ),
      );
    } else {
      const backs = [];
      for (let i = 0; i < pl.hand_count; i++) backs.push(back("a card in the opponent's hand", spot("hand", p, i, "ocg-handback")));
      hand = el("div", { class: "ocg-hand ocg-hand-theirs", role: "group", "aria-label": "opponent's hand" }, backs);
    }
    return el(
      "section",
      { class: `ocg-side ${mine ? "ocg-side-mine" : "ocg-side-theirs"}` },
      el("div", { class: "ocg-facts" }, facts),
      el("div", { class: "ocg-zones" }, slots, piles),
      pending,
      hand,
    );
  }

  function squareName(view, s) {
    const sq = view.board.squares[s];
    if (!sq && proxyName(view) && s >= 10) return `${proxyName(view)} on square ${s}`;
    if (!sq) return `square ${s}`;
    if (sq.hidden || !sq.card) return `the face-down Medarot on square ${s}`;
    return `${sq.card.name} (square ${s})`;
  }

  /** The action under way, the card in use and the lasting effects, in words. */
  function status(view, ctx) {
    const b = view.board;
    const lines = [];
    if (b.action) {
      const a = b.action;
      const whose = a.player === view.seat ? "Your" : "The opponent's";
      let t = a.square >= 0 ? `${whose} ${squareName(view, a.square)} is acting` : `${whose} acting Medarot left the board`;
      if (a.target !== null && a.target !== undefined && a.target >= 0) {
        t += `, attacking ${squareName(view, a.target)}${a.far ? " from 2 squares away" : ""}`;
      }
      const flags = [];
      if (a.moved) flags.push("it has moved");
      if (a.negated) flags.push("the attack is negated");
      if (a.redirected) flags.push("the attack was turned onto a guard");
      if (a.cancel_penalty) flags.push("no penalty for not moving");
      if (a.free_far) flags.push("free 2-square attack");
      if (a.disabled) flags.push("it cannot act");
      if (flags.length) t += ` (${flags.join("; ")})`;
      lines.push(el("div", { class: "ocg-acting-line", text: t }));
      if (ctx.details) {
        const raw = Object.entries(a)
          .filter(([, v]) => typeof v === "boolean")
          .map(([k, v]) => `${k} ${v ? "yes" : "no"}`)
          .join(", ");
        lines.push(el("div", { class: "ocg-detail", text: raw }));
      }
    }
    if (b.in_use) {
      const u = b.in_use;
      const whose = u.player === view.seat ? "You are" : "The opponent is";
      const name = u.card ? u.card.name : "a card";
      const line = el("div", { class: "ocg-inuse", title: u.card ? tooltip(u.card, ctx.details) : "" }, `${whose} using ${name}`);
      lines.push(u.card ? withText(line, `in_use|${name}`, name, tooltip(u.card, ctx.details), "inline") : line);
    }
    if (b.count !== null && b.count !== undefined && ctx.details) {
      lines.push(el("div", { class: "ocg-detail", text: `count ${b.count}` }));
    }
    const effects = b.effects || [];
    const list = el(
      "ul",
      { class: "ocg-effects" },
      effects.length ? effects.map((e) => el("li", { text: e.text || e.op })) : el("li", { class: "ocg-empty", text: "none" }),
    );
    return el(
      "aside",
      { class: "ocg-status" },
      el("div", { class: "ocg-turn", text: `Turn ${view.turn}${view.board.mode ? ` \u00b7 ${view.board.mode} mode` : ""}` }),
      ctx.details && view.decision ? el("div", { class: "ocg-detail", text: `decision ${view.decision}` }) : null,
      lines,
      el("div", { class: "ocg-effects-title", text: "Lasting effects" }),
      list,
    );
  }

  function draw(view, ctx) {
    ctx = ctx || {};
    const me = view.seat;
    const opp = 1 - me;
    return el(
      "div",
      { class: "ocg-board" },
      side(view, opp, ctx),
      el("div", { class: "ocg-middle" }, grid(view, ctx), status(view, ctx)),
      side(view, me, ctx),
    );
  }

  boards["medarot_ocg_v1"] = draw;
})();
