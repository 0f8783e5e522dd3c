// Practice in the review (a table of one person and bots): the hints asked and the moves
// taken back in the round, as the server's review answer lists them (`practice`), shown with
// the decisions they were about.

import { actionWords, t, tn } from "./i18n.js";
import { el } from "./storage.js";

/** Add the round's hints and undos to a review `panel` drawn from the answer `review`. */
export function notePractice(panel, review) {
  const practice = review.practice;
  if (!practice || (!practice.hints.length && !practice.undos.length)) return;
  for (const turn of practice.hints) {
    const decision = panel.querySelector(`.review-decision[data-turn="${turn}"]`);
    if (decision) decision.append(el("span", { class: "badge review-hinted" }, t("hint asked")));
  }
  const lines = [];
  if (practice.hints.length) {
    lines.push(tn("You asked for {n} hint this round.", "You asked for {n} hints this round.", practice.hints.length));
  }
  for (const undo of practice.undos) { // the person's decision, and the moves that followed it
    const [move, ...after] = undo.actions.map(actionWords);
    lines.push(after.length ? tn("You took back {move} and {n} move after it.", "You took back {move} and {n} moves after it.",
      after.length, { move }) : t("You took back {move}.", { move }));
  }
  panel.append(el("div", { class: "review-practice", id: `review-practice-${review.round}` },
    lines.map((line) => el("p", {}, line))));
}
