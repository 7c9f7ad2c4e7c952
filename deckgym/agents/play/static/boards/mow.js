// Master of the World table for the deckgym play page. Plain JavaScript, no build step.
//
// Draws one seat's view (envs/mow/view.py): the opponent's side on top, the turn, the chain
// and the effect being resolved in the middle, the viewer's side at the bottom. A side is its
// master (level, life, attack / guard, experience), its monster slots, its weapon and spell
// slots, its deck, and its discard and experience piles, which fold open. Every spot a move
// can concern carries data-place="zone/player/index" (the places of envs/mow/describe.py):
// master, monster, weapon, spell, hand, deck, discard, experience, chain. At an AMALOGS proxy
// table the opponent is a stand-in (the defender's, or the enemy base): only its master spot,
// its life and what attacking it does are drawn.
//
// Every card the view shows face up has a small "i" button (keyboard and touch alike) that opens
// its whole text beside it (kind, numbers, needs, costs, abilities), as the tooltip says; a hand
// card also shows its needs and costs on its face. The text comes from the view alone.
"use strict";

(() => {
  const boards = (window.deckgymBoards = window.deckgymBoards || {});
  const { el, key, spot, capital, cardText } = window.deckgymDom;

  /** The card's kind, class and printed numbers in a few words. */
  function statLine(card) {
    const cls = card.class ? card.class + " " : "";
    if (card.kind === "monster") return `${cls}monster ${card.attack} / ${card.toughness}`;
    if (card.kind === "weapon") return `${cls}weapon +${card.attack} / +${card.guard}`;
    if (card.kind === "spell") return [card.class, card.fast ? "fast" : "", card.counter ? "counter" : "", "spell"].filter(Boolean).join(" ");
    return card.kind || "";
  }

  /** The classes of a card's kind and class (mow-monster, mow-gigant ...). */
  function kindClass(card) {
    return `mow-${card.kind || "card"}${card.class ? " mow-" + card.class : ""}`;
  }

  // a face-up card tile in a box with its "i" button and text (card text one tap away, a11y), a
  // card back, the "i" button and its text for any other node, a labelled zone and a pile that
  // folds open (dom.js cardPieces)
  const { cardTile, back, withText, zoneBox, pileBox } = window.deckgymDom.cardPieces("mow", kindClass, statLine);

  const NEEDS = {
    LEVEL_AT_LEAST: (n) => `level ${n}+`,
    LIFE_AT_MOST: (n) => `life ${n} or less`,
    HAND_AT_LEAST: (n) => `${n}+ other cards in hand`,
    OWN_MONSTERS_AT_LEAST: (n) => `${n}+ own monsters`,
    OPP_MONSTERS_AT_LEAST: (n) => `${n}+ opposing monsters`,
    DISCARD_AT_LEAST: (n) => `${n}+ cards in discard`,
  };
  const COSTS = {
    COST_SACRIFICE: (n) => `${n} monster${n === 1 ? "" : "s"}`,
    COST_DISCARD: (n) => `discard ${n}`,
    COST_LIFE: (n) => `${n} life`,
    COST_EXP: (n) => `${n} experience`,
  };

  /** A hand card's needs and costs in a few words ("needs level 3+ · cost 2 experience"), or "". */
  function conditionLine(card) {
    const cond = card.condition || {};
    const needs = Object.entries(cond).filter(([k]) => NEEDS[k]).map(([k, n]) => NEEDS[k](n));
    const costs = Object.entries(cond).filter(([k]) => COSTS[k]).map(([k, n]) => COSTS[k](n));
    return [needs.length ? `needs ${needs.join(", ")}` : "", costs.length ? `cost ${costs.join(", ")}` : ""].filter(Boolean).join(" \u00b7 ");
  }

  function masterTile(player, p, ctx) {
    const m = player.master;
    const now = `Life ${player.life}. Attack ${m.attack}, guard ${m.guard}. Experience ${m.experience}.`;
    const tip = [m.text, now].join("\n");
    const node = el(
      "div",
      { ...spot("master", p, null, "card mow-card mow-master"), title: tip },
      el("div", { class: "mow-name" }, m.name),
      el("div", { class: "mow-life" }, el("span", { class: "mow-big" }, String(player.life)), " life"),
      el("div", { class: "mow-stats" }, `level ${m.level} of ${m.max_level}`),
      el("div", { class: "mow-stats" }, `attack ${m.attack} / guard ${m.guard}`),
      el("div", { class: "mow-stats" }, `experience ${m.experience}`),
      m.attacked ? el("div", { class: "mow-note" }, "has attacked") : null,
      ctx.details ? el("div", { class: "mow-id" }, m.id) : null,
    );
    if (player.life <= 5) node.classList.add("mow-low");
    return withText(node, `${key("master", p, null)}|${m.name}`, m.name, cardText(m, now));
  }

  function monsterSlots(side, player, p, ctx) {
    const mons = side.monsters || [];
    const n = Math.max(player.level, mons.length);
    const row = el("div", { class: "mow-monsters" });
    for (let i = 0; i < n; i++) {
      const m = mons[i];
      if (!m) {
        row.append(el("div", { ...spot("monster", p, i, "mow-slot mow-empty"), title: `Empty monster slot ${i + 1}` }, `slot ${i + 1}`));
        continue;
      }
      const notes = [];
      if (m.sick) notes.push("summoned this turn");
      if (m.attacked) notes.push("has attacked");
      if (ctx.details) notes.push(`uid ${m.uid}, entered turn ${m.entered}`);
      const tip = `In slot ${i + 1}: attack ${m.attack}, toughness ${m.toughness} of ${m.max_toughness}, damage ${m.damage}.`;
      const tile = cardTile(m.card, spot("monster", p, i, "mow-slot"), ctx, {
        stats: el(
          "span",
          {},
          el("div", {}, `attack ${m.attack}`),
          el("div", {}, `toughness ${m.toughness}${m.toughness !== m.max_toughness ? " of " + m.max_toughness : ""}`),
        ),
        note: notes.join(", "),
        tip,
      });
      const card = tile.firstChild;
      if (m.damage) card.append(el("div", { class: "mow-damage", title: `${m.damage} damage` }, `-${m.damage}`));
      if (m.sick) card.classList.add("mow-sick");
      row.append(tile);
    }
    if (!n) row.append(el("div", { class: "mow-none" }, "no monster slots at level 0"));
    return row;
  }

  function weaponSlot(side, p, ctx) {
    const w = side.weapon;
    if (!w) return zoneBox("weapon", el("div", { ...spot("weapon", p, null, "mow-slot mow-empty"), title: "No weapon" }, "none"));
    const note = ctx.details ? `uid ${w.uid}` : "";
    const stats = el("span", {}, el("div", {}, `attack +${w.card.attack}`), el("div", {}, `guard +${w.card.guard}`));
    return zoneBox("weapon", cardTile(w.card, spot("weapon", p, null, "mow-slot"), ctx, { note, stats }));
  }

  function spellSlot(side, p, ctx) {
    const s = side.spell;
    if (!s) return zoneBox("spell slot", el("div", { ...spot("spell", p, null, "mow-slot mow-empty"), title: "No spell" }, "empty"));
    const ready = s.ready ? "ready" : `ready from turn ${s.cast_turn + 1}`;
    let tile;
    if (!s.card || s.card.hidden) {
      tile = back({ ...spot("spell", p, null, "mow-slot"), title: `A face-down spell, ${ready}` }, ready);
    } else {
      tile = cardTile(s.card, spot("spell", p, null, "mow-slot mow-facedown"), ctx, {
        note: `face down, ${ready}${ctx.details ? ", uid " + s.uid : ""}`,
        tip: `Face down (only you know it), ${ready}.`,
      });
    }
    return zoneBox("spell slot", tile);
  }

  /** A public pile that folds open: its count, then every card in it (newest last). */
  function pile(zone, title, cards, p, ctx) {
    return pileBox(zone, p, title, cards, (c, i) => cardTile(c, spot(zone, p, i, "mow-mini"), ctx));
  }

  function handRow(player, p, mine, ctx) {
    const row = el("div", { class: "mow-hand" });
    if (mine) {
      (player.hand || []).forEach((c, i) => {
        const box = cardTile(c, spot("hand", p, i), ctx);
        const cond = conditionLine(c);
        if (cond) box.firstChild.append(el("div", { class: "mow-cond" }, cond));
        row.append(box);
      });
      if (!(player.hand || []).length) row.append(el("div", { class: "mow-none" }, "no cards in hand"));
    } else {
      for (let i = 0; i < player.hand_count; i++) row.append(back({ ...spot("hand", p, i), title: "A card in the opponent's hand" }));
      if (!player.hand_count) row.append(el("div", { class: "mow-none" }, "no cards in hand"));
    }
    return el("div", { class: "mow-hand-zone" }, el("div", { class: "mow-label" }, mine ? "your hand" : `opponent's hand (${player.hand_count})`), row);
  }

  /** An AMALOGS stand-in (amalogs D37, D40): a master with life, and nothing else. */
  function proxySide(player, p, ctx) {
    const m = player.master;
    const text = String(m.text || "");
    const rest = text.includes(": ") ? text.slice(text.indexOf(": ") + 2) : text;
    const tile = el(
      "div",
      { ...spot("master", p, null, "card mow-card mow-master"), title: `${capital(m.name)}: ${rest}\nLife ${player.life}. Attack ${m.attack}, guard ${m.guard}.` },
      el("div", { class: "mow-name" }, capital(m.name)),
      el("div", { class: "mow-life" }, el("span", { class: "mow-big" }, String(player.life)), " life"),
      el("div", { class: "mow-stats" }, `attack ${m.attack} / guard ${m.guard}`),
    );
    if (player.life <= 5) tile.classList.add("mow-low");
    return el(
      "section",
      { class: "mow-side mow-theirs mow-proxy" },
      el("div", { class: "mow-who" }, `Opponent: ${m.name}${ctx.details ? ` (seat ${p})` : ""}`),
      el(
        "div",
        { class: "mow-field" },
        withText(tile, `${key("master", p, null)}|${m.name}`, capital(m.name), `${capital(m.name)}\n${capital(rest)}\nLife ${player.life}. Attack ${m.attack}, guard ${m.guard}.`),
        el("div", { class: "mow-note" }, capital(rest), " It has no cards and never decides; your master and ready monsters attack it."),
      ),
    );
  }

  function sideBox(view, p, ctx) {
    const player = view.players[p];
    const side = view.board.sides[p];
    const mine = p === view.seat;
    if (player && player.proxy && !mine) return proxySide(player, p, ctx);
    const box = el("section", { class: `mow-side ${mine ? "mow-mine" : "mow-theirs"}` });
    const who = mine ? "You" : "Opponent";
    if (!player || player.vacant) {
      box.append(el("div", { class: "mow-who" }, `${who}: an empty seat`));
      return box;
    }
    const active = view.board.active === p;
    box.append(
      el(
        "div",
        { class: "mow-who" },
        who + (ctx.details ? ` (seat ${p})` : ""),
        active ? el("span", { class: "mow-turn" }, mine ? " - your turn" : " - their turn") : null,
        player.fast_used ? el("span", { class: "mow-flag" }, " - fast spell used this turn") : null,
      ),
    );
    const deck = zoneBox("deck", back({ ...spot("deck", p, null, "mow-deck"), title: `${player.deck} cards in the deck` }, String(player.deck)));
    const piles = el(
      "div",
      { class: "mow-piles" },
      pile("experience", "Experience", side.experience || [], p, ctx),
      pile("discard", "Discard", side.discard || [], p, ctx),
    );
    const field = el(
      "div",
      { class: "mow-field" },
      masterTile(player, p, ctx),
      el("div", { class: "mow-zone mow-monster-zone" }, el("div", { class: "mow-label" }, `monsters (${(side.monsters || []).length} of ${player.level} slots)`), monsterSlots(side, player, p, ctx)),
      weaponSlot(side, p, ctx),
      spellSlot(side, p, ctx),
      deck,
    );
    const hand = handRow(player, p, mine, ctx);
    // the viewer's hand is nearest the viewer: below the field; the opponent's above it
    if (mine) box.append(field, piles, hand);
    else box.append(hand, field, piles);
    return box;
  }

  const USE = { summon: "summons", equip: "equips", cast: "casts", activate: "activates" };

  function middle(view, ctx) {
    const b = view.board;
    const seat = view.seat;
    const box = el("section", { class: "mow-middle" });
    const whose = b.active === seat ? "your turn" : "the opponent's turn";
    box.append(
      el(
        "div",
        { class: "mow-status" },
        `Turn ${view.turn} - ${whose}, ${b.phase} phase`,
        b.phase === "charge" ? ` (${b.charges} charged)` : "",
        view.done ? " - the game is over" : "",
        ctx.details ? ` - decision ${view.decision || "none"}, seat ${view.to_move} to move` : "",
      ),
    );
    for (const u of b.using || []) {
      const line = el("div", { class: "mow-using", title: u.card.text }, `${u.player === seat ? "You are" : "The opponent is"} using ${u.card.name}`);
      box.append(withText(line, `using|${u.card.name}`, u.card.name, cardText(u.card), "inline"));
    }
    const chain = b.chain || [];
    if (chain.length) {
      const list = el("ol", { class: "mow-chain", reversed: true });
      for (let i = chain.length - 1; i >= 0; i--) {
        const e = chain[i];
        const who = e.user === seat ? "You" : "The opponent";
        const mine = e.user === seat;
        const hidden = !e.card || e.card.hidden;
        let what;
        if (hidden) what = `${mine ? "cast" : "casts"} a face-down spell`;
        else if (e.use === "ability") what = `${mine ? "use" : "uses"} ${e.card.name}'s counter ability`;
        else what = `${mine ? e.use : USE[e.use] || e.use} ${e.card.name}${e.use === "cast" ? " face down" : ""}`;
        const entry = el(
          "li",
          { ...spot("chain", null, i, "mow-entry" + (e.negated ? " mow-negated" : "")), title: hidden ? "A face-down spell" : e.card.text },
          `${who} ${what}`,
          e.negated ? " (negated)" : "",
        );
        // the card's text: its "i" button sits inside the entry (a list item stays a list item)
        if (!hidden) entry.append(" ", withText(el("span"), `${key("chain", null, i)}|${e.card.name}`, e.card.name, cardText(e.card), "inline"));
        list.append(entry);
      }
      box.append(el("div", { class: "mow-label" }, "chain, resolving from the top"), list);
    }
    const pend = b.pending;
    if (pend && pend.kind === "effect") {
      const line = el("div", { class: "mow-pending", title: pend.source.text }, `Resolving ${pend.source.name}: ${pend.effect}`);
      box.append(pend.source.text ? withText(line, `pending|${pend.source.name}`, pend.source.name, cardText(pend.source), "inline") : line);
    } else if (pend && pend.kind === "cost") {
      box.append(el("div", { class: "mow-pending" }, `${pend.player === seat ? "You are" : "The opponent is"} paying a cost: ${pend.text || ""} (${pend.left} left)`));
    }
    return box;
  }

  boards.mow_v1 = function draw(view, ctx) {
    return window.deckgymDom.drawTable("mow-board", view, ctx, sideBox, middle);
  };
})();
