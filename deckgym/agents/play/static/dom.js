// DOM helpers shared by the play page and the ruleset boards. Plain JavaScript, no build step.
//
// window.deckgymDom.el(tag, attrs, ...children) builds an element: attrs sets the class, the
// text, event listeners ("onclick": fn) and other attributes (skipped when null, undefined or
// false); children are nodes or text. key(zone, player, index) is a place key as
// envs/core/describe.py's place_key writes it ("zone/player/index", empty parts for null),
// spot(zone, player, index, cls) the attributes of a board spot that moves may concern,
// capital(text) the text with a capital first letter, and cardText(card, ...more) a card's text
// for its "i" button. For the boards whose class names start with prefix- (boards/mow.js,
// boards/medarot_parts.js): cardPieces(prefix, kindClass, statLine) their card tile (with its
// "i" button), card back, zones and piles, and drawTable(boardClass, view, ctx, sideBox, middle)
// their table for a seat. cardTexts(boardClass) is the "i" button that opens a card's text, for
// the boards drawn in an element of boardClass (its styles, and the styles the boards share:
// cards.css).
"use strict";

(() => {
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

  const part = (x) => (x === null || x === undefined ? "" : x);
  const key = (zone, player, index) => `${zone}/${part(player)}/${part(index)}`;
  const spot = (zone, player, index, cls) => ({
    class: `place ${cls || ""}`.trim(),
    "data-place": key(zone, player, index),
  });

  const capital = (t) => t.charAt(0).toUpperCase() + t.slice(1);

  /** A card's text for its "i" button: its name, then the rest of its text, then the `more` lines given. */
  function cardText(card, ...more) {
    const text = String(card.text || "");
    const rest = text.startsWith(`${card.name}: `) ? text.slice(card.name.length + 2) : text;
    return [card.name, capital(rest), ...more].filter(Boolean).join("\n");
  }

  /**
   * The card pieces of a board whose classes start with prefix- (mow-, mp-), drawn in an element
   * of class prefix-board:
   * - cardTile(card, attrs, ctx, extra, where, button), a face-up tile with the card's name, its
   *   numbers (extra.stats, else statLine(card)), extra.note, its id when ctx.details, and its
   *   whole text and extra.tip as the tooltip, classed by kindClass(card), in a box with its "i"
   *   button (withText: the text is cardText(card, extra.tip), kept open by the tile's place,
   *   else by `where`; `button` says where the button goes);
   * - back(attrs, label), a card back that says nothing of the card;
   * - withText, the board's cardTexts;
   * - zoneBox(label, ...nodes), a zone of a side: its label above the nodes;
   * - pileBox(zone, player, title, cards, tile), a public pile that folds open (as the person
   *   left it, across redraws): its count and top card, then tile(card, i, k) for each of its
   *   cards, newest last (k: the pile's place key).
   */
  function cardPieces(prefix, kindClass, statLine) {
    const withText = cardTexts(`${prefix}-board`);
    /** Which piles a person has folded open, by place key. */
    const opened = {};

    function plainTile(card, attrs, ctx, extra) {
      const a = { ...(attrs || {}) };
      a.class = `${a.class || ""} card ${prefix}-card ${kindClass(card)}`.trim();
      a.title = [card.text || card.name, extra && extra.tip].filter(Boolean).join("\n");
      return el(
        "div",
        a,
        el("div", { class: `${prefix}-name` }, card.name),
        el("div", { class: `${prefix}-stats` }, extra && extra.stats ? extra.stats : statLine(card)),
        extra && extra.note ? el("div", { class: `${prefix}-note` }, extra.note) : null,
        ctx.details && card.id ? el("div", { class: `${prefix}-id` }, card.id) : null,
      );
    }

    function back(attrs, label) {
      const a = { ...(attrs || {}) };
      a.class = `${a.class || ""} card back ${prefix}-back`.trim();
      return el("div", a, label ? el("div", { class: `${prefix}-back-label` }, label) : null);
    }

    function cardTile(card, attrs, ctx, extra, where, button) {
      const tile = plainTile(card, attrs, ctx, extra);
      const id = `${(attrs && attrs["data-place"]) || where || ""}|${card.name}`;
      return withText(tile, id, card.name, cardText(card, extra && extra.tip), button);
    }

    function zoneBox(label, ...nodes) {
      return el("div", { class: `${prefix}-zone` }, el("div", { class: `${prefix}-label` }, label), ...nodes);
    }

    function pileBox(zone, player, title, cards, tile) {
      const k = key(zone, player, null);
      const box = el("details", { class: `${prefix}-pile` });
      if (opened[k]) box.open = true;
      box.addEventListener("toggle", () => {
        opened[k] = box.open;
      });
      const top = cards.length ? cards[cards.length - 1].name : "";
      box.append(
        el(
          "summary",
          { ...spot(zone, player, null, `${prefix}-pile-head`), title: `${title}: ${cards.length} cards` },
          `${title} ${cards.length}`,
          top ? el("span", { class: `${prefix}-top` }, ` top: ${top}`) : "",
        ),
      );
      const list = el("div", { class: `${prefix}-pile-cards` });
      cards.forEach((c, i) => list.append(tile(c, i, k)));
      if (!cards.length) list.append(el("div", { class: `${prefix}-none` }, "empty"));
      box.append(list);
      return box;
    }

    return { cardTile, back, withText, zoneBox, pileBox };
  }

  /**
   * A table drawn for one seat's view, in an element of class boardClass: the other seats' sides
   * on top, then middle(view, ctx), then the viewer's side at the bottom; sideBox(view, seat,
   * ctx) draws a side.
   */
  function drawTable(boardClass, view, ctx, sideBox, middle) {
    ctx = ctx || {};
    const seat = view.seat;
    const root = el("div", { class: boardClass });
    const seats = view.players.map((_, p) => p);
    for (const p of seats.filter((q) => q !== seat)) root.append(sideBox(view, p, ctx));
    root.append(middle(view, ctx));
    root.append(sideBox(view, seat, ctx));
    return root;
  }

  // ------------------------------------------------ card text one tap away (a11y)
  let serial = 0;

  /**
   * The card texts of the boards drawn in an element of class `boardClass`: withText(node, id,
   * name, text, where) puts `node` (a card, or the board spot holding one) in a box with an "i"
   * button that opens `text` (the card's text, from the view) below it, or above it in the
   * board's lower half; right-aligned in its right half. One text is open at a time on a board.
   * The button and the text keep their clicks from the board, so reading a card never plays a
   * move; Escape closes it. `id` keeps it open across redraws. `where`: "inline" puts the button
   * after the node rather than on its corner; "inside" puts it on the node's corner within the
   * node, for a place inside a larger place (the button then belongs to the node's place, so a
   * click meant for the larger one never lands on it).
   */
  function cardTexts(boardClass) {
    /** Which card texts are open, by id ("place|card name"), kept across redraws. */
    const shown = {};

    function placeText(box, panel) {
      const root = box.closest(`.${boardClass}`) || box.parentElement;
      if (!root) return;
      const r = box.getBoundingClientRect();
      const b = root.getBoundingClientRect();
      panel.classList.toggle("card-text-up", r.top + r.height / 2 > b.top + b.height / 2);
      panel.classList.toggle("card-text-end", r.left + r.width / 2 > b.left + b.width / 2);
    }

    function setOpen(button, panel, open) {
      panel.hidden = !open;
      button.setAttribute("aria-expanded", String(open));
      if (open) shown[button.dataset.text] = true;
      else delete shown[button.dataset.text];
    }

    return function withText(node, id, name, text, where) {
      const inline = where === "inline";
      const inside = where === "inside";
      const panelId = `card-text-${++serial}`;
      const panel = el("div", { class: "card-text", id: panelId, hidden: true }, text);
      const button = el(
        "button",
        {
          type: "button",
          class: `card-info${inline ? " card-info-inline" : ""}${inside ? " card-info-inside" : ""}`,
          "aria-expanded": "false",
          "aria-controls": panelId,
          "aria-label": `Card text: ${name}`,
          title: `Card text: ${name}`,
          "data-text": id,
          "data-card-info": true,
        },
        "i",
      );
      if (inside) node.append(button);
      const box = el("div", { class: inline ? "card-box card-box-inline" : "card-box" }, node, inside ? null : button, panel);
      const toggle = (ev) => {
        ev.stopPropagation();
        const open = panel.hidden;
        if (open) {
          const root = box.closest(`.${boardClass}`);
          for (const other of root ? root.querySelectorAll(".card-info[aria-expanded='true']") : []) {
            const p = document.getElementById(other.getAttribute("aria-controls"));
            if (p) setOpen(other, p, false);
          }
          placeText(box, panel);
        }
        setOpen(button, panel, open);
      };
      button.addEventListener("click", toggle);
      panel.addEventListener("click", toggle);
      button.addEventListener("keydown", (ev) => {
        if (ev.key === "Escape" && !panel.hidden) toggle(ev);
      });
      if (shown[id]) {
        // opened once the board is on the page, where it can be placed
        requestAnimationFrame(() => {
          if (!box.isConnected || !shown[id]) return;
          placeText(box, panel);
          setOpen(button, panel, true);
        });
      }
      return box;
    };
  }

  window.deckgymDom = { el, key, spot, capital, cardText, cardPieces, drawTable, cardTexts };
})();
