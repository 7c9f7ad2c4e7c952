// Medarot parts game table for the deckgym play page. Plain JavaScript, no build step.
//
// Draws one seat's view (envs/medarot_parts/view.py): the opponent's side on top, the turn,
// the round and what is being resolved now in the middle, the viewer's side at the bottom.
// A side is its two medarots (a medal and five parts each: head, right arm, left arm, legs,
// with armor, damage counters, tapped and destroyed), its energy stock by kind, its hand (the
// opponent's as card backs), its deck, its play area and its trash, which folds open. Every
// spot a move can concern carries data-place="zone/player/index", the places of
// envs/medarot_parts/describe.py: part (4 x medarot + slot), medarot, medal, hand, energy
// (by kind); also deck, trash and play. At an AMALOGS proxy table the opponent is a stand-in
// (the defender's, or the enemy base): one stand-in medarot with only a head, whose armor left
// is its life.
//
// Every card the view shows face up has a small "i" button (keyboard and touch alike) that opens
// its whole text beside it, as the tooltip says (a part's also lists what is attached to it). The
// text comes from the view alone. Within a medarot the button sits inside its card's own place
// (a part, the medal), so a click on the medarot around them selects the medarot.
"use strict";

(() => {
  const boards = (window.deckgymBoards = window.deckgymBoards || {});
  const { el, key, spot, capital, cardText } = window.deckgymDom;

  const SLOT_WORDS = { HEAD: "head", RIGHT_ARM: "right arm", LEFT_ARM: "left arm", LEGS: "legs" };
  const SLOT_INDEX = { HEAD: 0, RIGHT_ARM: 1, LEFT_ARM: 2, LEGS: 3 };
  const ACTION_WORDS = {
    SHOOT: "shoot",
    AIMED: "aimed shot",
    PUNCH: "punch",
    RECKLESS: "reckless",
    PROTECT: "protect",
    REPAIR: "repair",
    SUPPORT: "support",
  };
  const ENERGY = [
    ["SHOOT", "Shooting"],
    ["MELEE", "Melee"],
    ["DEFENSE", "Defense"],
    ["SUPPORT", "Support"],
  ];
  const TYPE_CLASS = { PART: "part", MEDAL: "medal", ENERGY: "energy", MEDAROTER: "medaroter", EVADE: "evade", EFFECT: "effect" };

  /** A card's kind and printed numbers in a few words. */
  function statLine(card) {
    if (card.type === "PART") {
      if (card.slot === "LEGS") return `legs, mobility ${card.mobility}, armor ${card.armor}`;
      return `${SLOT_WORDS[card.slot]}, ${ACTION_WORDS[card.action] || ""}, power ${card.power} · charge ${card.charge}, armor ${card.armor}`;
    }
    if (card.type === "MEDAL") return `medal, attribute ${card.attribute}`;
    if (card.type === "ENERGY") return "energy";
    if (card.type === "MEDAROTER") return `medaroter, cost ${card.cost}`;
    if (card.type === "EVADE") return "evade card";
    if (card.type === "EFFECT") return "effect card";
    return "";
  }

  // a face-up card tile in a box with its "i" button and text (card text one tap away, a11y;
  // `where` names a tile that is no place, `button` says where its button goes), a card back,
  // the "i" button and its text for any other node, a labelled zone and a pile that folds open
  // (dom.js cardPieces)
  const { cardTile, back, withText, zoneBox, pileBox } = window.deckgymDom.cardPieces(
    "mp",
    (card) => `mp-type-${TYPE_CLASS[card.type] || "card"}`,
    statLine,
  );

  /** One part of a medarot: name, action, power / charge, armor left, counters, tapped, destroyed. */
  function partTile(part, p, m, ctx) {
    const s = SLOT_INDEX[part.slot];
    const c = part.card;
    const legs = part.slot === "LEGS";
    const attrs = spot("part", p, 4 * m + s, `mp-part mp-slot-${s}`);
    const lines = [];
    if (legs) lines.push(el("div", { class: "mp-stats" }, `mobility ${c.mobility}`));
    else {
      lines.push(el("div", { class: "mp-stats" }, ACTION_WORDS[c.action] || ""));
      lines.push(el("div", { class: "mp-stats" }, `power ${part.power} · charge ${part.charge}`));
    }
    const armor = c.armor;
    const left = part.armor_left;
    const pips = el("div", { class: "mp-armor", title: `Armor ${left} of ${armor} left; ${part.counters} damage counters` });
    for (let i = 0; i < armor; i++) {
      const hit = part.destroyed || i >= armor - part.counters;
      pips.append(el("span", { class: hit ? "mp-pip mp-hit" : "mp-pip" }));
    }
    const state = [];
    if (part.destroyed) state.push("destroyed");
    else {
      state.push(`armor ${left}/${armor}`);
      if (part.counters) state.push(`${part.counters} dmg`);
      if (part.tapped) state.push("tapped");
    }
    if (part.attack_part) state.push("attacking");
    if (part.protect_part) state.push("protecting");
    const tipBits = [
      `${SLOT_WORDS[part.slot]}:`,
      part.destroyed ? "destroyed." : `armor ${left} of ${armor} left, ${part.counters} damage counters${part.tapped ? ", tapped" : ", untapped"}.`,
    ];
    if (!legs) tipBits.push(`Current power ${part.power}, charge ${part.charge}.`);
    const a = { ...attrs };
    a.class = `${a.class} card mp-card mp-part-card${part.destroyed ? " mp-destroyed" : ""}${part.tapped && !part.destroyed ? " mp-tapped" : ""}`;
    a.title = [c.text, tipBits.join(" ")].join("\n");
    const node = el(
      "div",
      a,
      el("div", { class: "mp-slotname" }, SLOT_WORDS[part.slot]),
      el("div", { class: "mp-name" }, c.name),
      lines,
      pips,
      el("div", { class: "mp-state" }, state.join(", ")),
      ctx.details ? el("div", { class: "mp-id" }, `${c.id} (attribute ${c.attribute})`) : null,
    );
    if (part.effect) node.append(el("div", { class: "mp-attached mp-effect-on", title: part.effect.text }, `effect: ${part.effect.name}`));
    for (const x of part.attached || []) node.append(el("div", { class: "mp-attached", title: x.text }, `+ ${x.name}`));
    const more = [tipBits.join(" ")];
    if (part.effect) more.push(`Effect on: ${part.effect.text || part.effect.name}`);
    for (const x of part.attached || []) more.push(`Attached: ${x.text || x.name}`);
    // the button within the part's place: a click meant for the medarot around it never lands on it
    const box = withText(node, `${attrs["data-place"]}|${c.name}`, c.name, cardText(c, ...more), "inside");
    box.classList.add(`mp-slot-${s}`); // the box is the figure's grid item
    return box;
  }

  function medarotBox(med, p, ctx) {
    const m = med.index;
    const flags = [];
    if (med.stopped) flags.push("stopped");
    if (med.action_medarot) flags.push("action medarot");
    if (med.attacking) flags.push("attacking");
    if (med.defending) flags.push("defending");
    const medal = med.medal;
    const medalAt = spot("medal", p, m, `mp-medal${med.medal_tapped ? " mp-tapped" : ""}`);
    const medalNote = { stats: `attribute ${medal.attribute}`, note: med.medal_tapped ? "tapped" : "untapped" };
    const medalTile = cardTile(medal, medalAt, ctx, medalNote, null, "inside");
    const parts = med.parts.map((part) => partTile(part, p, m, ctx));
    const label = medal.name.endsWith(" Medal") ? medal.name.slice(0, -6) + " medarot" : medal.name + " medarot";
    const box = el(
      "div",
      { ...spot("medarot", p, m, `mp-medarot${med.stopped ? " mp-stopped" : ""}${med.action_medarot ? " mp-acting" : ""}`) },
      el(
        "div",
        { class: "mp-medarot-head" },
        el("span", { class: "mp-medarot-name" }, label),
        ` · mobility ${med.mobility}`,
        flags.length ? el("span", { class: "mp-flags" }, ` · ${flags.join(", ")}`) : null,
      ),
      el("div", { class: "mp-body" }, el("div", { class: "mp-medal-cell" }, medalTile), parts),
    );
    return box;
  }

  function energyRow(player, side, p) {
    const row = el("div", { class: "mp-energy" });
    ENERGY.forEach(([k, word], i) => {
      const e = (player.energy || {})[k] || { untapped: 0, total: 0 };
      row.append(
        el(
          "div",
          { ...spot("energy", p, i, `mp-energy-pile mp-energy-${i}${e.total ? "" : " mp-empty"}`), title: `${word} Energy: ${e.untapped} untapped of ${e.total}` },
          el("div", { class: "mp-energy-name" }, word),
          el("div", { class: "mp-energy-count" }, `${e.untapped}/${e.total}`),
        ),
      );
    });
    return zoneBox("energy stock (untapped/all)", row);
  }

  /** A public pile that folds open: its count, then every card in it (newest last). */
  function pile(zone, title, cards, p, ctx) {
    return pileBox(zone, p, title, cards, (c, i, k) => cardTile(c, { class: "mp-mini" }, ctx, null, `${k}/${i}`));
  }

  function handRow(player, p, mine, ctx) {
    let row;
    if (mine) {
      row = el("div", { class: "mp-hand" });
      (player.hand || []).forEach((c, i) => row.append(cardTile(c, spot("hand", p, i, "mp-hand-card"), ctx)));
      if (!(player.hand || []).length) row.append(el("div", { class: "mp-none" }, "no cards in hand"));
    } else {
      row = el("div", { ...spot("hand", p, null, "mp-hand mp-hand-backs"), title: `${player.hand_count} cards in the opponent's hand` });
      for (let i = 0; i < player.hand_count; i++) row.append(back({ class: "mp-small-back" }));
      if (!player.hand_count) row.append(el("div", { class: "mp-none" }, "no cards in hand"));
    }
    return el("div", { class: "mp-hand-zone" }, el("div", { class: "mp-label" }, mine ? `your hand (${(player.hand || []).length})` : `opponent's hand (${player.hand_count})`), row);
  }

  /** An AMALOGS stand-in (amalogs D37, D40): one medarot with only a head; its armor left is its life. */
  function proxySide(view, p, ctx) {
    const proxy = view.board.proxy || {};
    const med = view.board.sides[p].medarots[0];
    const part = med.parts[0];
    const name = proxy.name || med.medal.name;
    const life = proxy.life !== undefined ? proxy.life : part.armor_left;
    const armor = part.card.armor;
    const pips = el("div", { class: "mp-armor", title: `Armor ${part.armor_left} of ${armor} left; ${part.counters} damage counters` });
    for (let i = 0; i < armor; i++) pips.append(el("span", { class: part.destroyed || i >= armor - part.counters ? "mp-pip mp-hit" : "mp-pip" }));
    const state = part.destroyed ? "destroyed" : `armor ${part.armor_left}/${armor}${part.counters ? `, ${part.counters} dmg` : ""}`;
    const head = el(
      "div",
      { ...spot("part", p, 0, `mp-part mp-slot-0 card mp-card mp-part-card${part.destroyed ? " mp-destroyed" : ""}`), title: part.card.text },
      el("div", { class: "mp-slotname" }, "head"),
      el("div", { class: "mp-name" }, part.card.name),
      pips,
      el("div", { class: "mp-state" }, state),
    );
    const text = String(proxy.text || "").replace(/^Seat 1 is /, "");
    const headBox = withText(head, `${key("part", p, 0)}|${part.card.name}`, part.card.name, cardText(part.card, `Head: ${state}.`), "inside");
    headBox.classList.add("mp-slot-0");
    const box = el(
      "div",
      { ...spot("medarot", p, med.index, `mp-medarot${med.defending ? " mp-acting" : ""}`) },
      el("div", { class: "mp-medarot-head" }, el("span", { class: "mp-medarot-name" }, "stand-in medarot"), " · head only", med.defending ? el("span", { class: "mp-flags" }, " · defending") : null),
      el("div", { class: "mp-body" }, headBox),
      el("div", { class: "mp-note" }, capital(text), ". No medal, legs, energy or cards; it never decides."),
    );
    return el(
      "section",
      { class: "mp-side mp-theirs" },
      el("div", { class: "mp-who" }, `Opponent: ${name}${ctx.details ? ` (seat ${p})` : ""}`, el("span", { class: "mp-assets" }, ` · ${life} life`)),
      el("div", { class: "mp-medarots" }, box),
    );
  }

  function sideBox(view, p, ctx) {
    const player = view.players[p];
    const side = view.board.sides[p];
    const mine = p === view.seat;
    if (!mine && side && (side.medarots || []).some((m) => m.proxy)) return proxySide(view, p, ctx);
    const box = el("section", { class: `mp-side ${mine ? "mp-mine" : "mp-theirs"}` });
    const who = mine ? "You" : "Opponent";
    const flags = [];
    if (player.has_priority) flags.push("priority this turn");
    if (player.first) flags.push("first this round");
    if (player.turn_to_act) flags.push(mine ? "your turn to act" : "their turn to act");
    box.append(
      el(
        "div",
        { class: "mp-who" },
        who + (ctx.details ? ` (seat ${p})` : ""),
        el("span", { class: "mp-assets", title: "Assets pay for parts exchanges" }, ` · ${player.assets} G`),
        flags.length ? el("span", { class: "mp-flag" }, ` · ${flags.join(", ")}`) : null,
      ),
    );
    const medarots = el("div", { class: "mp-medarots" }, (side.medarots || []).map((med) => medarotBox(med, p, ctx)));
    const deck = zoneBox("deck", back({ ...spot("deck", p, null, "mp-deck"), title: `${player.deck_count} cards in the deck` }, String(player.deck_count)));
    const play = zoneBox(
      "play area",
      el(
        "div",
        { class: "mp-play" },
        (side.play_area || []).map((c, i) => cardTile(c, spot("play", p, i, "mp-mini"), ctx)),
        (side.play_area || []).length ? null : el("div", { class: "mp-none" }, "empty"),
      ),
    );
    const stock = el("div", { class: "mp-stockline" }, energyRow(player, side, p), play, deck, pile("trash", "Trash", side.trash || [], p, ctx));
    const hand = handRow(player, p, mine, ctx);
    // the viewer's hand is nearest the viewer: below the field; the opponent's above it
    if (mine) box.append(medarots, stock, hand);
    else box.append(hand, stock, medarots);
    return box;
  }

  function middle(view, ctx) {
    const b = view.board;
    const seat = view.seat;
    const box = el("section", { class: "mp-middle" });
    const bits = [`Turn ${view.turn}`];
    if (b.round) bits.push(`round ${b.round}`);
    if (b.turn_to_act >= 0) bits.push(b.turn_to_act === seat ? "your turn to act" : "the opponent's turn to act");
    box.append(
      el(
        "div",
        { class: "mp-status" },
        bits.join(" · "),
        view.done ? " · the game is over" : "",
        ctx.details ? ` · decision ${view.decision || "none"}, seat ${view.to_move} to move, passes ${b.passes}` : "",
      ),
    );
    if (b.resolving) box.append(el("div", { class: "mp-resolving" }, b.resolving));
    const bt = b.battle;
    if (bt) {
      const a = bt.attacker === seat ? "Your" : "The opponent's";
      const facts = [`${a} ${bt.part.name} (${SLOT_WORDS[bt.slot]}) attacks`];
      if (bt.damage || bt.defender !== null) facts.push(`damage ${bt.damage}`);
      if (bt.response === "PROTECT") facts.push(`protect paying ${bt.protect_amount}`);
      if (bt.response === "EVADE") facts.push("evaded");
      if (bt.dealt) facts.push(`${bt.dealt} dealt`);
      const line = el("div", { class: "mp-battle", title: bt.part.text }, facts.join(" · "));
      box.append(withText(line, `battle|${bt.part.name}`, bt.part.name, cardText(bt.part), "inline"));
    }
    return box;
  }

  boards.medarot_parts_v1 = function draw(view, ctx) {
    return window.deckgymDom.drawTable("mp-board", view, ctx, sideBox, middle);
  };
})();
