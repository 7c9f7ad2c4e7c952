"""State check, leaving the field, level changes and triggered effects (spec 5.6, 5.7, D9-D11, D26, D29, D47).

Triggered effects (廃棄時, up時, 攻撃時) are queued by their event and resolve right after
the state check that follows it, in D26 order: the active player's cards first, then the
opponent's; master, monsters in field order, weapon; within a card, printed order (D47).
"""

from __future__ import annotations

from typing import Any, Final

from deckgym.envs.mow.actions import DP, TARGET, Action
from deckgym.envs.mow.cards import ON_ATTACK, ON_DISCARD, ON_LEVEL_UP
from deckgym.envs.mow.rules.flow import ask, decision, end, push, task
from deckgym.envs.mow.rules.values import level_for, toughness
from deckgym.envs.mow.state import GameState, Monster

#: Trigger groups of D26.
G_MASTER, G_MONSTER, G_WEAPON = 0, 1, 2


def frame(ctl: int, card: str, code: int, src: int, trig: int = 0, atk: int = 0) -> list:
    """A new effect frame: ``[controller, card, list code, primitive index, SELF, TRIGGER_CARD, ATTACK_TARGET, SAME]``."""
    return [ctl, card, code, 0, src, trig, atk, []]


def queue(
    st: GameState, p: int, card: str, timing: str, group: int, pos: int, src: int, atk: int = 0, lv: int = 0
) -> None:
    """Queue the abilities of ``card`` with ``timing`` for the next state check (5.6)."""
    for i, a in enumerate(st.cards[card].abilities):
        if a.timing == timing:
            st.triggers.append([p, lv, group, pos, i, card, i, src, atk])


def queue_level_up(st: GameState, p: int, lv: int) -> None:
    """D10: level ``lv`` gained: the master's up時 for lv and ANY, then monsters', then the weapon's."""
    master = st.masters[p]
    for j, (level, _effects) in enumerate(st.cards[master].level_up):
        if level in (0, lv):
            st.triggers.append([p, lv, G_MASTER, 0, j, master, -2 - j, -1 - p, 0])
    for pos, m in enumerate(st.monsters[p]):
        queue(st, p, m.card, ON_LEVEL_UP, G_MONSTER, pos, m.uid, lv=lv)
    w = st.weapon[p]
    if w is not None:
        queue(st, p, w[0], ON_LEVEL_UP, G_WEAPON, 0, w[1], lv=lv)


def queue_attack(st: GameState, p: int, attacker: int, target: int) -> None:
    """D35: the attacker's 攻撃時, plus the master's weapon's when the master attacks."""
    if attacker < 0:
        queue(st, p, st.masters[p], ON_ATTACK, G_MASTER, 0, attacker, target)
        w = st.weapon[p]
        if w is not None:
            queue(st, p, w[0], ON_ATTACK, G_WEAPON, 0, w[1], target)
        return
    for pos, m in enumerate(st.monsters[p]):
        if m.uid == attacker:
            queue(st, p, m.card, ON_ATTACK, G_MONSTER, pos, m.uid, target)


def set_level(st: GameState, p: int) -> None:
    """D9, D10: recompute the level from the experience pile; queue up時 for each level gained."""
    old = st.level[p]
    new = level_for(st.cards[st.masters[p]], len(st.exp[p]))
    if new == old:
        return
    st.level[p] = new
    st.emit("level", f"P{p} is now level {new}", player=p, level=new)
    for lv in range(old + 1, new + 1):
        queue_level_up(st, p, lv)


def discard_monster(st: GameState, p: int, pos: int) -> Monster:
    """A monster goes from the field to the discard pile; its 廃棄時 is queued (D29)."""
    m = st.monsters[p].pop(pos)
    st.discard[p].append(m.card)
    st.emit("field_discard", f"P{p}'s {st.name(m.card)} is discarded", player=p, card=m.card, zone="monster")
    queue(st, p, m.card, ON_DISCARD, G_MONSTER, pos, m.uid)
    return m


def discard_weapon(st: GameState, p: int) -> None:
    """The weapon goes from the field to the discard pile; its 廃棄時 is queued (D29)."""
    w = st.weapon[p]
    assert w is not None
    st.weapon[p] = None
    st.discard[p].append(w[0])
    st.emit("field_discard", f"P{p}'s {st.name(w[0])} is discarded", player=p, card=w[0], zone="weapon")
    queue(st, p, w[0], ON_DISCARD, G_WEAPON, 0, w[1])


def discard_spell(st: GameState, p: int) -> None:
    """The face-down spell is revealed and goes to the discard pile (no 廃棄時, D29)."""
    s = st.spell[p]
    assert s is not None
    st.spell[p] = None
    st.discard[p].append(s[0])
    st.emit(
        "field_discard",
        f"P{p}'s face-down spell {st.name(s[0])} is discarded",
        player=p,
        card=s[0],
        zone="spell",
    )


def game_over(st: GameState) -> bool:
    """5.7.1 and section 8: life <= 0 or an empty deck loses; both players at once is a draw (D41).

    A vacant seat meets no loss condition. The proxy of an AMALOGS table (amalogs D37, D40)
    loses when its life P is 0, and never with its empty deck.
    """
    seated = st.seats()
    lost = [p in seated and (st.life[p] <= 0 or not st.deck[p]) for p in (0, 1)]
    if st.config.proxy and st.life[1] <= 0:
        lost[1] = True
    if not (lost[0] or lost[1]):
        return False
    if lost[0] and lost[1]:
        end(st, 2, "both players lose at the same state check: draw (D41)")
        return True
    p = 0 if lost[0] else 1
    if st.is_proxy(p):
        end(st, 0, f"{st.stand_in()} is down to 0 life")
        return True
    why = "life 0" if st.life[p] <= 0 else "an empty deck"
    end(st, 1 - p, f"P{p} loses with {why}")
    return True


def discard_destroyed(st: GameState) -> bool:
    """5.7.2: every monster with toughness <= 0 is discarded simultaneously (R26)."""
    dead = [(p, i) for p in (0, 1) for i, m in enumerate(st.monsters[p]) if toughness(st, p, m) <= 0]
    for p, i in reversed(dead):
        discard_monster(st, p, i)
    return bool(dead)


def overflow_player(st: GameState) -> int:
    """5.7.3, D11: the first player (active first) with more monsters than slots, or -1."""
    for p in (st.active, 1 - st.active):
        if len(st.monsters[p]) > st.level[p]:
            return p
    return -1


@task
def check(st: GameState) -> None:
    """5.7: the state check, then the queued triggers (5.6)."""
    while True:
        if game_over(st):
            return
        if discard_destroyed(st):
            continue
        p = overflow_player(st)
        if p >= 0:
            push(st, ["check"])
            ask(st, DP.OVERFLOW_DISCARD, p)
            return
        break
    resolve_triggers(st)


def resolve_triggers(st: GameState) -> None:
    """5.6: push the queued triggered effects in D26/D47 order."""
    if not st.triggers:
        return
    act = st.active
    pending = sorted(st.triggers, key=lambda x: (x[0] != act, x[1], x[2], x[3], x[4]))
    st.triggers = []
    tasks: list[list[Any]] = []
    for x in pending:
        tasks += [["trigger", x[0], x[5], x[6], x[1]], ["effects", frame(x[0], x[5], x[6], x[7], 0, x[8])]]
    push(st, *tasks)


#: The trigger timings as event lines name them (the seed's 廃棄時, up時, 攻撃時).
TIMING_NAMES: Final = {ON_DISCARD: "when-discarded", ON_LEVEL_UP: "level-up", ON_ATTACK: "on-attack"}


@task
def trigger(st: GameState, p: int, card: str, code: int, lv: int) -> None:
    """Announce a queued triggered effect as it starts to resolve (a ``trigger`` event, D26 order).

    ``code`` is the ability index, or ``-2 - j`` for the master's j-th up時 list; ``lv`` the
    level gained (0 for other triggers).
    """
    timing = ON_LEVEL_UP if code < -1 else st.cards[card].abilities[code].timing
    text = f"P{p}'s {st.name(card)}: {TIMING_NAMES[timing]} effect"
    if timing == ON_LEVEL_UP:
        text += f" (level {lv})"
    st.emit("trigger", text, player=p, card=card, timing=timing, level=lv if timing == ON_LEVEL_UP else None)


def own_monster_targets(st: GameState, p: int) -> list[Action]:
    """TARGET[self][monster q] for each of ``p``'s monsters."""
    return [TARGET[1 + q] for q in range(len(st.monsters[p]))]


@decision(DP.OVERFLOW_DISCARD, legal=lambda st: own_monster_targets(st, st.current_player))
def on_overflow(st: GameState, p: int, a: Action) -> None:
    """K13, D11: the owner discards the chosen monster; the state check goes on."""
    discard_monster(st, p, a.arg - 1)
