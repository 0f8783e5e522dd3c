// The plays of a legal list, read from their canonical text (docs/protocol.md): the cards a
// play holds, the cards that may go down together (SW3: 7c+7h+7s, the top card last), and
// the plays that a set of cards marked in the hand makes. Pure functions of strings: the
// table page uses them, and the browser tests call them.

/** The cards of a play, the top card last: "7c+7h=s!" -> ["7c", "7h"]; [] for draw, pass,
 * take and the naming of a suit ("=s"). */
export const cardsOf = (action) => (/^(draw|pass|take)$/.test(action) || action.startsWith("=") ? []
  : action.replace("!", "").split("=")[0].split("+"));

/** The top card of a play: "8h=s!" -> "8h", "7c+7h" -> "7h"; null for draw, pass, take, "=s". */
export const cardOf = (action) => {
  const cards = cardsOf(action);
  return cards.length ? cards[cards.length - 1] : null;
};

/** Whether two lists hold the same cards, whatever their order (a card may come twice). */
export const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** Whether every card of `part` is in `whole` (as many times). */
export const within = (part, whole) => {
  const left = [...whole];
  return part.every((card) => {
    const k = left.indexOf(card);
    if (k < 0) return false;
    left.splice(k, 1);
    return true;
  });
};

/** Of some plays, those with the call (`!`) when `call` is on and there are any, else those
 * without (else those with: a play that must call). */
export function withCall(plays, call) {
  const announced = plays.filter((a) => a.endsWith("!"));
  const plain = plays.filter((a) => !a.endsWith("!"));
  if (call && announced.length) return announced;
  return plain.length ? plain : announced;
}

/** The cards that may go down with others in one play (SW3), from the legal plays. */
export function groupable(legal) {
  const cards = new Set();
  for (const action of legal) {
    const list = cardsOf(action);
    if (list.length > 1) list.forEach((card) => cards.add(card));
  }
  return cards;
}

/** Whether `card` may join the `marked` cards: some legal play holds them all, and it. */
export function canJoin(legal, marked, card) {
  const wanted = [...marked, card];
  return legal.some((a) => within(wanted, cardsOf(a)));
}

/** The legal plays of exactly the `marked` cards (in the order they were marked), with the
 * call or not, the card marked last on top (as the README says): none when the rules do not
 * let that card be on top (SW3: a card under it must be playable; `topsOfCards` says which
 * may). The plays differ only by the suit they name.
 *
 * playsOfCards(["7c+7h", "7h+7c", "Kh"], ["7h", "7c"], false) -> ["7h+7c"] */
export function playsOfCards(legal, marked, call) {
  const top = marked[marked.length - 1];
  return withCall(legal.filter((a) => cardsOf(a).length && sameCards(cardsOf(a), marked)), call)
    .filter((a) => cardOf(a) === top);
}

/** The cards that may be on top of a play of exactly the `marked` cards, in any order. */
export function topsOfCards(legal, marked) {
  return [...new Set(legal.filter((a) => cardsOf(a).length && sameCards(cardsOf(a), marked)).map(cardOf))];
}
