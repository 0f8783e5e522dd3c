// The review of a round: "Review my play" after a round (the round summary) and on a
// finished table's record page (/t/CODE/record). The server values each of the person's
// decisions (POST /api/tables/CODE/review, with their seat's token, for a round that has
// ended) and answers in the page's language; this draws the timeline of marks.

import { lang, t, tn } from "./i18n.js";
import { el, getJSON, postJSON, seatOf } from "./storage.js";
import { notePractice } from "./practice.js";

/** A "Review my play" button for round `round` of table `code`, and the panel it fills;
 * null when this browser holds no seat at the table (spectators cannot ask). */
export function reviewButton(code, round) {
  const seat = seatOf(code);
  if (!seat) return null;
  const panel = el("section", { class: "review-panel", id: `review-${round}`, "aria-live": "polite", hidden: true });
  const button = el("button", { type: "button", class: "review-button", id: `review-round-${round}` }, t("Review my play"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    panel.hidden = false;
    await fillReview(panel, code, seat.token, round);
    button.disabled = false;
  });
  return el("div", { class: "review" }, button, panel);
}

/** Ask for the review and draw it in `panel` (or the server's refusal, in words). */
export async function fillReview(panel, code, token, round) {
  panel.replaceChildren(el("p", { class: "muted review-wait" }, t("The search is reviewing your play…")));
  let review;
  try {
    review = await postJSON(`/api/tables/${encodeURIComponent(code)}/review`, { token, round, lang: lang() });
  } catch (exc) {
    panel.replaceChildren(el("p", { class: "review-error", role: "alert" }, exc.message));
    return;
  }
  const parts = [
    el("h3", {}, t("Your play in round {n}", { n: review.round })),
    el("p", { class: "review-summary" }, review.summary),
  ];
  if (!review.decisions.length) {
    parts.push(el("p", { class: "muted" }, t("You had no choice to make in this round.")));
  } else {
    parts.push(el("ol", { class: "review-timeline" }, review.decisions.map((d) =>
      el("li", { class: `review-decision mark-${d.mark}`, "data-mark": d.mark, "data-turn": d.turn, title: d.text },
        el("span", { class: "review-mark" }, d.mark_text),
        el("span", { class: "review-played" }, d.played_text),
        d.mark === "best" || d.best === d.played ? null
          : el("span", { class: "review-best" }, t("better: {action}", { action: d.best_text }))))));
    if (review.worst.length) {
      parts.push(el("h4", {}, t("Your largest mistakes")),
        el("ul", { class: "review-worst" }, review.worst.map((w) => el("li", {}, w))));
    } else {
      parts.push(el("p", { class: "review-clean" }, t("No mistake: every decision was good or best.")));
    }
  }
  panel.replaceChildren(...parts);
  notePractice(panel, review); // practice.js: the hints asked and the moves taken back
}

/** /t/CODE/record: a finished table's rounds, each with its review for a player of it. */
export async function showRecord(root, code) {
  let record;
  try {
    record = await getJSON(`/api/tables/${encodeURIComponent(code)}/record`);
  } catch (exc) {
    root.replaceChildren(el("section", { class: "panel", id: "record-page" },
      el("p", { class: "review-error", role: "alert" }, exc.message),
      el("a", { class: "button", href: "/" }, t("Back to the lobby"))));
    return;
  }
  const seat = seatOf(code);
  const rounds = record.rounds.map((round, i) => el("li", { class: "record-round" },
    el("h3", {}, t("Round {n}", { n: i + 1 })),
    el("p", { class: "muted" }, tn("{n} move", "{n} moves", round.actions.length)),
    reviewButton(code, i + 1)));
  root.replaceChildren(el("section", { class: "panel", id: "record-page" },
    el("h2", {}, t("Record of table {code}", { code })),
    seat ? null : el("p", { class: "muted" }, t("Only the players of this table can review their play.")),
    el("ol", { class: "record-rounds" }, rounds),
    el("div", { class: "dialog-buttons" },
      el("a", { class: "button", href: `/api/tables/${encodeURIComponent(code)}/record`, download: `eights-${code}.json` }, t("Download the record")),
      el("a", { class: "button", href: `/t/${encodeURIComponent(code)}` }, t("Back to the table")))));
}
