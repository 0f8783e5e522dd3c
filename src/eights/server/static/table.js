// A table: the waiting room, then the game as the server sends it.
//
// The server is authoritative: the page shows the `view` of each `state`
// event (this seat's observation) and sends the actions listed in
// `view.legal`, in canonical notation, with the state's `version`.

import { cardPretty, cardWords, lang, levelName, seatName, suitWords, SUIT_SYMBOLS, t, tableTitle, tn } from "./i18n.js";
import { backSVG, faceSVG, indexSVG, suitSVG } from "./cards.js";
import { TableSocket } from "./net.js";
import { reviewButton } from "./review.js";
import { canJoin, cardOf, cardsOf, groupable, playsOfCards, topsOfCards, withCall } from "./plays.js";
import {
  el, forgetSeat, getJSON, hostTokenOf, keepHostToken, keepName, keepSeat, keepSetting, postJSON, savedName, seatOf,
  setting,
} from "./storage.js";
import { setSound, sound, soundOn } from "./sound.js";

const SUITS = ["c", "d", "h", "s"];
const MOTION = !matchMedia("(prefers-reduced-motion: reduce)").matches;
/** The log shows the whole match up to this many lines (the latest ones past it). */
const LOG_LINES = 1000;

export async function showTable(root, code) {
  const page = new TablePage(root, code);
  await page.open();
}

class TablePage {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.table = null; // the `table` description
    this.seat = null; // this connection's seat (null: watching)
    this.state = null; // the last `state` event
    this.socket = null;
    this.busy = false; // an action is on its way: ignore clicks until the next state
    this.announce = false;
    this.marked = []; // hand indices of the cards chosen for a play of several (SW3), in the order chosen
    this.namingAsked = -1; // the version at which the suit picker opened by itself to name a starter's suit
    this.log = [];
    this.target = null;
    this.notice = "";
    this.timerEnd = null;
    this.watching = false; // chose to watch instead of joining
    this.handIndex = -1; // the card that had the focus last
    this.usingKeys = false;
    this.rules = null; // the table's rules in words and numbers (GET /api/tables/CODE/rules)
    this.hint = null; // practice: the last hint event (for the decision at its version)
    this.hinting = false; // practice: a hint asked for and not come yet
    this.fresh = false; // a welcome just brought the whole log: the state that follows adds nothing
    this.online = false;
  }

  get hostToken() {
    return hostTokenOf(this.code);
  }

  get view() {
    return this.state ? this.state.view : null;
  }

  names() {
    return this.table.seats.map((s, i) => seatName(s) || t("Player {n}", { n: i + 1 }));
  }

  // ---------------------------------------------------------------- opening

  async open() {
    this.takeHostLink();
    window.addEventListener("hashchange", () => {
      if (this.takeHostLink() && this.table) {
        if (this.table.status === "waiting") this.renderWaiting();
        else if (this.view) this.render();
      }
    });
    let table;
    try {
      table = await getJSON(`/api/tables/${encodeURIComponent(this.code)}`);
    } catch (exc) {
      const message = exc.status === 404 ? t("This table does not exist. Check the invite link.")
        : t("Could not reach the server: {message}", { message: exc.message });
      this.root.replaceChildren(el("section", { class: "panel narrow" },
        el("p", { class: "error", role: "alert" }, message),
        el("a", { class: "button", href: "/" }, t("Back to the lobby"))));
      return;
    }
    this.table = table;
    getJSON(`/api/tables/${encodeURIComponent(this.code)}/rules?lang=${lang()}`).then((rules) => {
      this.rules = rules;
      this.target = rules.target;
      if (this.view) this.render();
    }).catch(() => {});
    this.build();
    const mine = seatOf(this.code);
    if (!mine && table.status !== "waiting") this.notice = t("Every seat is taken: you can watch.");
    if (table.status === "waiting") this.renderWaiting();
    this.connect(mine ? mine.token : null); // without a seat: watch (the waiting room stays live)
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  /** A table made through the API: its host opens /t/CODE#host=TOKEN (the answer's
   * host_link) to hold it in this browser; the token leaves the address at once. */
  takeHostLink() {
    const given = /^#host=([A-Za-z0-9_-]{1,100})$/.exec(location.hash);
    if (!given) return false;
    keepHostToken(this.code, given[1]);
    history.replaceState(null, "", location.pathname + location.search);
    return true;
  }

  connect(token) {
    if (this.socket) this.socket.stop();
    this.socket = new TableSocket(this.code, {
      token,
      lang: lang(),
      onEvent: (message) => this.onEvent(message),
      onStatus: (status, event) => this.onStatus(status, event),
    });
    this.socket.connect();
  }

  async join(name) {
    const answer = await postJSON(`/api/tables/${encodeURIComponent(this.code)}/join`, { name });
    keepName(name);
    keepSeat(this.code, answer.seat, answer.token);
    this.table = answer.table;
    this.notice = "";
    this.connect(answer.token);
  }

  // ---------------------------------------------------------------- events

  onStatus(status, event) {
    const banner = document.getElementById("banner");
    this.online = status === "open";
    this.page.dataset.online = String(this.online);
    this.setInert();
    if (this.playing) this.renderStatus();
    if (status === "open") {
      this.opened = (this.opened || 0) + 1;
      this.page.dataset.connections = this.opened;
      banner.hidden = true;
      return;
    }
    if ((this.table && this.table.status === "closed") || (event && event.code === 1000 && /closed/.test(event.reason))) {
      this.showClosed();
      return;
    }
    banner.textContent = t("Reconnecting…");
    banner.hidden = false;
    this.busy = false;
  }

  /** While the connection is down nothing can be played: the hand and the buttons say so. */
  setInert() {
    const off = !this.online || (this.table && this.table.status === "closed");
    for (const node of [this.hand, this.actions, this.stock, this.hostBar]) {
      if (node) node.inert = off;
    }
  }

  /** The host closed the table: say so, stop reconnecting, and offer the way back. */
  showClosed() {
    if (this.socket) this.socket.stop();
    this.page.dataset.status = "closed";
    const banner = document.getElementById("banner");
    banner.replaceChildren(t("The host closed the table."), " ",
      el("a", { href: "/", class: "banner-link" }, t("Back to the lobby")));
    banner.hidden = false;
    this.setInert();
    if (this.playing) this.renderStatus();
    for (const dialog of this.root.querySelectorAll("dialog[open]")) dialog.close();
  }

  onEvent(message) {
    switch (message.type) {
      case "welcome":
        this.seat = message.seat;
        this.table = message.table;
        // The match so far, in the words of the live log; the state that follows adds nothing.
        this.log = [...(message.log || [])];
        this.fresh = this.table.status !== "waiting";
        if (this.table.status === "waiting") this.renderWaiting();
        this.autostart();
        break;
      case "table":
        this.table = message.table;
        if (this.table.status === "closed") {
          this.showClosed();
        } else if (this.table.status === "waiting") {
          this.renderWaiting();
          this.autostart();
        } else if (this.state) {
          this.renderPods();
          this.renderSide();
          if (this.view.match_over) this.renderSummary(); // a rematch was made
        }
        break;
      case "rematch":
        this.onRematch(message);
        break;
      case "state":
        this.onState(message);
        break;
      case "hint":
        this.onHint(message);
        break;
      case "error":
        this.onError(message);
        break;
      default:
        break;
    }
  }

  onError(message) {
    this.busy = false;
    this.hinting = false;
    if (message.code === "bad_token" && message.seq === 1 && this.socket.token) {
      // The seat was given to a bot, or the token is not this table's: forget it and watch.
      forgetSeat(this.code);
      this.socket.token = null;
      this.notice = t("This seat is no longer yours: join again or watch.");
      this.socket.hello();
      return;
    }
    if (message.code === "stale") return; // the current state follows
    this.toast(message.message);
  }

  /** The match is over and someone asked for a rematch: a person seated here moves to their
   * seat at the new table (the one who asked hosts it, and starts it at once when no seat is
   * free); a spectator sees the way there in the summary. */
  onRematch(message) {
    if (!message.token) return; // watching: the table event brings the link
    keepSeat(message.code, message.seat, message.token);
    if (message.host_token) {
      keepHostToken(message.code, message.host_token);
      if (!message.table.seats.some((s) => s.kind === "free")) {
        sessionStorage.setItem(`eights.autostart.${message.code}`, "1");
      }
    }
    this.socket.stop();
    location.assign(message.invite);
  }

  /** Ask for a rematch (a seated person, or the host). */
  askRematch() {
    const mine = seatOf(this.code);
    const token = mine ? mine.token : this.hostToken;
    if (!token || this.busy) return;
    if (this.socket.send("rematch", { token })) this.busy = true;
  }

  autostart() {
    const key = `eights.autostart.${this.code}`;
    if (sessionStorage.getItem(key) && this.table.status === "waiting" && this.hostToken
        && !this.table.seats.some((s) => s.kind === "free")) {
      sessionStorage.removeItem(key);
      this.socket.send("start", { token: this.hostToken });
    }
  }

  onState(message) {
    const previous = this.state;
    const rects = this.measure();
    this.state = message;
    this.busy = false;
    const view = message.view;
    if (!this.playing) this.buildPlaying();
    if (this.fresh) {
      this.fresh = false; // the welcome's log already ends here
    } else if (message.last) {
      this.log.push(message.last.text);
    } else if (!previous || previous.view.round !== view.round) {
      this.log.push(t("Dealt: round {n}.", { n: view.round })); // as the server's log says it
    }
    if (!view.legal.some((a) => a.endsWith("!"))) this.announce = false;
    this.marked = [];
    this.timerEnd = message.timer === null ? null : Date.now() + message.timer * 1000;
    if (!this.hint || this.hint.version !== message.version) this.hint = null;
    this.render();
    if (previous && message.last) this.animate(previous.view, message, rects);
    this.sounds(previous, message);
    // TS3, UC3: the suit of a wild starter is named first; the picker opens by itself, once.
    if (this.naming() && this.namingAsked !== message.version && !document.querySelector("dialog[open]")) {
      this.namingAsked = message.version;
      this.nameStarter();
    }
  }

  /** The sounds of a change (sound.js; off unless turned on): a card played or drawn, the
   * end of a round, and your turn coming. */
  sounds(previous, message) {
    const view = message.view;
    if (!previous) return;
    const last = message.last;
    if (view.round_over && !previous.view.round_over) sound("round");
    else if (last && cardOf(last.action)) sound("play");
    else if (last && last.action === "draw") sound("draw");
    const mine = (v) => this.seat !== null && v.to_play === this.seat && v.legal.length > 0 && !v.round_over;
    if (mine(view) && !mine(previous.view)) setTimeout(() => sound("turn"), 180);
  }

  // ---------------------------------------------------------------- practice

  /** Practice (one person and bots): hint and undo are offered to the person playing. */
  practising() {
    return Boolean(this.table && this.table.practice && this.seat !== null && seatOf(this.code));
  }

  canHint() {
    const view = this.view;
    return this.practising() && !this.hinting && !view.round_over && view.to_play === this.seat
      && view.legal.length > 1;
  }

  canUndo() {
    const view = this.view;
    return this.practising() && !view.round_over && view.history.some(([seat]) => seat === this.seat);
  }

  askHint() {
    const mine = seatOf(this.code);
    if (!this.canHint() || !mine) return;
    if (this.socket.send("hint", { token: mine.token, version: this.state.version })) {
      this.hinting = true;
      this.hintLine.textContent = t("Looking for a hint…");
      this.renderActions();
    }
  }

  askUndo() {
    const mine = seatOf(this.code);
    if (!this.canUndo() || !mine || this.busy) return;
    if (this.socket.send("undo", { token: mine.token, version: this.state.version })) this.busy = true;
  }

  onHint(message) {
    this.hinting = false;
    if (!this.state || message.version !== this.state.version) return; // about a decision gone
    this.hint = message;
    this.renderActions();
    this.renderHand();
    this.renderHint();
  }

  renderHint() {
    if (!this.hintLine) return;
    const text = this.hint ? this.hint.text : "";
    if (this.hintLine.textContent !== text && !this.hinting) this.hintLine.textContent = text;
    this.hintLine.hidden = !this.practising();
  }

  /** The card (or button) the hint finds best, for the decision shown. */
  hinted() {
    return this.hint && this.state && this.hint.version === this.state.version ? this.hint.best : null;
  }

  // ---------------------------------------------------------------- settings

  /** Sound on or off, and the large four-colour deck: one toggle each, remembered. */
  settingsBar() {
    const toggle = (id, icon, label, on, flip) => {
      const button = el("button", { type: "button", class: "subtle small-button setting", id, "aria-pressed": String(on()), title: label },
        el("span", { class: "setting-icon", "aria-hidden": "true" }, icon), el("span", { class: "setting-label" }, label));
      button.addEventListener("click", () => {
        flip(!on());
        button.setAttribute("aria-pressed", String(on()));
      });
      return button;
    };
    return el("div", { class: "settings", role: "group", "aria-label": t("Settings") },
      toggle("sound-toggle", "♪", t("Sound"), soundOn, setSound),
      toggle("deck-toggle", "♣♦", t("Large four-colour cards"), () => setting("deck") === "four", (on) => {
        keepSetting("deck", on ? "four" : null);
        document.body.classList.toggle("deck-four", on);
        if (this.view) this.render();
      }));
  }

  /** Whether this seat is to name the suit of a wild starter now (the `=s` actions). */
  naming() {
    return Boolean(this.view && this.view.naming && this.view.legal.some((a) => a.startsWith("=")));
  }

  // ---------------------------------------------------------------- actions

  send(action) {
    if (this.busy || !this.view || !this.view.legal.includes(action)) return;
    const mine = seatOf(this.code);
    if (!mine) return;
    if (this.socket.send("action", { token: mine.token, action, version: this.state.version })) {
      this.busy = true;
      this.root.querySelector(".play-area").classList.add("busy");
    }
  }

  /** The legal plays of one card alone, with the call (`!`) as the announce button says. */
  playsOf(card) {
    return withCall(this.view.legal.filter((a) => cardsOf(a).length === 1 && cardOf(a) === card), this.announce);
  }

  /** The cards of the hand that may go down with others in one play (SW3: `7c+7h`). */
  groupable() {
    return groupable(this.view.legal);
  }

  markedCards() {
    return this.marked.map((i) => this.view.hand[i]);
  }

  /** Whether a card may join the marked ones. */
  canJoin(card) {
    return canJoin(this.view.legal, this.markedCards(), card);
  }

  /** The legal plays of exactly the marked cards, the card marked last on top. */
  markedPlays() {
    return playsOfCards(this.view.legal, this.markedCards(), this.announce);
  }

  /** The hand index of the marked card that goes on top (the one marked last), or -1 when the
   * marked cards cannot go down with it on top. */
  markedTop() {
    return this.markedPlays().length ? this.marked[this.marked.length - 1] : -1;
  }

  /** A click (or Enter) on the card at `index` of the hand. A card that may go down with
   * others is marked (or unmarked), to be played with the Play button; any other card is
   * played at once. */
  onCard(index) {
    const view = this.view;
    if (this.busy || !view || this.seat === null || view.to_play !== this.seat) return;
    const card = view.hand[index];
    const k = this.marked.indexOf(index);
    if (k >= 0) {
      this.marked.splice(k, 1);
    } else if (this.marked.length) {
      if (!this.canJoin(card)) return;
      this.marked.push(index);
    } else if (this.groupable().has(card)) {
      this.marked = [index];
    } else {
      this.playCard(card);
      return;
    }
    this.renderMarks();
  }

  /** The marked cards changed: the hand, the buttons and the status say so. */
  renderMarks() {
    this.renderActions();
    this.renderHand();
    this.renderStatus();
  }

  clearMarks() {
    if (!this.marked.length) return;
    this.marked = [];
    this.renderMarks();
  }

  /** Play the marked cards (naming a suit first when the top card names one). */
  playMarked() {
    if (this.busy || !this.view) return;
    const plays = this.markedPlays();
    if (!plays.length) return;
    if (plays.length === 1 && !plays[0].includes("=")) {
      this.send(plays[0]);
      return;
    }
    const cards = cardsOf(plays[0]);
    this.pickSuit(cards[cards.length - 1], plays,
      t("You play {card}: name the suit to follow.", { card: cards.map(cardPretty).join(" ") }));
  }

  playCard(card) {
    if (this.busy || !this.view) return;
    const plays = this.playsOf(card);
    if (!plays.length) return;
    if (plays.length === 1 && !plays[0].includes("=")) {
      this.send(plays[0]);
      return;
    }
    this.pickSuit(card, plays);
  }

  /** TS3, UC3: name the suit of the wild starter (the up-card) with the suit picker. */
  nameStarter() {
    const plays = this.view.legal.filter((a) => a.startsWith("="));
    if (!plays.length) return;
    const card = this.view.up_card;
    this.pickSuit(card, plays, t("The starter {card} is wild: name the suit to follow.", { card: cardPretty(card) }));
  }

  pickSuit(card, plays, hint = null) {
    const dialog = this.suitDialog;
    dialog.querySelector("h2").textContent = t("Name the suit to follow");
    dialog.querySelector(".picker-card").innerHTML = faceSVG(card);
    dialog.querySelector(".picker-hint").textContent = hint || t("You play {card}: name the suit to follow.", { card: cardPretty(card) });
    for (const button of dialog.querySelectorAll("[data-suit]")) {
      const action = plays.find((a) => a.replace("!", "").endsWith(`=${button.dataset.suit}`));
      button.hidden = !action;
      button.dataset.action = action || "";
    }
    dialog.showModal();
    dialog.querySelector("[data-suit]:not([hidden])").focus();
  }

  onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
    if (this.suitDialog && this.suitDialog.open) {
      const button = this.suitDialog.querySelector(`[data-suit="${event.key.toLowerCase()}"]:not([hidden])`);
      if (button) {
        event.preventDefault();
        button.click();
      }
      return;
    }
    if (!this.view || document.querySelector("dialog[open]")) return;
    const key = event.key.toLowerCase();
    if (key === "d" && this.view.legal.includes("draw")) this.send("draw");
    else if (key === "p" && this.view.legal.includes("pass")) this.send("pass");
    else if (key === "t" && this.view.legal.includes("take")) this.send("take");
    else if (key === "a" && this.view.legal.some((a) => a.endsWith("!"))) this.toggleAnnounce();
    else if (key === "n" && this.naming()) this.nameStarter();
    else if (key === "h" && this.canHint()) this.askHint();
    else if (key === "u" && this.canUndo()) this.askUndo();
    else if (key === "escape" && this.marked.length) this.clearMarks();
    else return;
    event.preventDefault();
  }

  nextRound() {
    const mine = seatOf(this.code);
    const token = mine ? mine.token : this.hostToken;
    if (this.busy || !token) return;
    if (this.socket.send("next_round", { token, version: this.state.version })) this.busy = true;
  }

  /** Host: a bot plays for a person who is away (the seat is the bot's from then on). */
  seatBot(seat) {
    if (this.hostToken) this.socket.send("seat_bot", { token: this.hostToken, seat, bot: "greedy" });
  }

  /** Host: close the table for everyone (after a confirmation). */
  askClose() {
    this.confirmDialog.showModal();
    this.confirmDialog.querySelector("#confirm-close-no").focus();
  }

  buildConfirmDialog() {
    const dialog = el("dialog", { class: "dialog confirm", id: "confirm-close", "aria-labelledby": "confirm-close-title" },
      el("h2", { id: "confirm-close-title" }, t("Close the table?")),
      el("p", {}, t("The match stops here for everyone; nobody can play at this table again.")),
      el("div", { class: "dialog-buttons" },
        el("button", { type: "button", id: "confirm-close-no", onclick: () => dialog.close() }, t("Cancel")),
        el("button", {
          type: "button", class: "danger", id: "confirm-close-yes",
          onclick: () => {
            dialog.close();
            this.socket.send("close", { token: this.hostToken });
          },
        }, t("Close the table"))));
    return dialog;
  }

  /** The rules panel: what matters at this table first (goal, special cards), then everything. */
  openRules() {
    const dialog = this.rulesDialog;
    const rules = this.rules;
    if (!rules) return;
    const changes = rules.changes || [];
    const toml = rules.toml ? el("pre", { class: "rules-toml", id: "rules-toml", tabindex: "0" }, rules.toml) : null;
    const copy = toml ? el("button", { type: "button", class: "small-button", id: "rules-copy" }, t("Copy as TOML")) : null;
    if (copy) {
      copy.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(rules.toml);
        } catch {
          getSelection().selectAllChildren(toml);
          document.execCommand("copy");
        }
        copy.textContent = t("Copied");
      });
    }
    dialog.replaceChildren(...[
      el("h2", { id: "rules-title" }, t("Rules: {title}", { title: rules.title })),
      rules.source ? el("p", { class: "muted small" }, rules.source) : null,
      el("p", { class: "rules-facts" },
        el("span", { class: "chip", id: "rules-wins" }, rules.lowest_wins ? t("Lowest total wins") : t("Highest total wins")),
        this.target ? el("span", { class: "chip" }, this.goalText()) : null),
      el("h3", {}, t("How to win")),
      el("ul", { class: "rules-list", id: "rules-goal" }, rules.goal.map((line) => el("li", {}, line))),
      el("h3", {}, t("Special cards at this table")),
      rules.specials.length
        ? el("ul", { class: "rules-list", id: "rules-specials" }, rules.specials.map((line) => el("li", {}, line)))
        : el("p", { id: "rules-specials" }, t("No card has an effect: match the suit or the rank.")),
      changes.length ? el("h3", {}, t("House rules at this table")) : null,
      changes.length ? el("ul", { class: "rules-list", id: "rules-overrides" }, changes.map((line) => el("li", {}, line))) : null,
      toml ? el("details", { class: "rules-details", id: "rules-file" },
        el("summary", {}, t("These rules as a file")),
        el("p", { class: "muted small" }, t("Save it as house.toml and play it in the terminal: eights play -r house.toml")),
        toml, el("div", { class: "dialog-buttons" }, copy)) : null,
      el("details", { class: "rules-details" },
        el("summary", {}, t("All the rules")),
        rules.details.map((line) => el("p", { class: line.startsWith("  ") ? "indent" : "" }, line.trim()))),
      el("div", { class: "dialog-buttons" },
        el("button", { type: "button", class: "primary", id: "rules-close", onclick: () => dialog.close() }, t("Close")))]
      .filter(Boolean)); // replaceChildren would write a null as the text "null"
    dialog.showModal();
    dialog.querySelector("#rules-close").focus({ preventScroll: true });
    dialog.scrollTop = 0;
  }

  rulesButton() {
    return el("button", {
      type: "button", class: "rules-button", id: "rules-button", "aria-haspopup": "dialog",
      onclick: () => this.openRules(),
    }, el("span", { class: "rules-icon", "aria-hidden": "true" }, "?"), t("Rules"));
  }

  toggleAnnounce() {
    this.announce = !this.announce;
    this.renderActions();
    this.renderHand();
  }

  /** Under play_on (TS11): the place of each seat that is out, 1 for the first out; 0 for a
   * seat still holding cards. */
  placeOf(seat) {
    return (this.view.finished || []).indexOf(seat) + 1;
  }

  /** The keys of this table in a line: t and a only where the rules take a card (LH5) or
   * announce (HA13, MM9). */
  keyLine() {
    const more = (this.rules && this.rules.take ? t(", t takes") : "")
      + (this.rules && this.rules.announce ? t(", a announces") : "");
    return this.multiPlay()
      ? t("Keys: ←/→ choose a card, Enter plays it, d draws, p passes{more}.", { more })
      : t("Keys: ←/→ choose a card, Enter or Space plays it, d draws, p passes{more}.", { more });
  }

  /** Whether plays of several cards of one rank are allowed here (SW3): the keys differ. */
  multiPlay() {
    return Boolean(this.rules && this.rules.multi_play);
  }

  /** Arrow keys move between the cards of the hand (the cards are buttons: Enter or Space plays).
   * Where several cards of one rank go down together (SW3), m or Space marks the card (as in
   * the terminal), Enter plays it alone, or the marked cards with that card on top. The key
   * help (renderSide) says the same. */
  onHandKey(event) {
    const cards = [...this.hand.querySelectorAll(".card")];
    const i = cards.indexOf(document.activeElement);
    if (i < 0 || event.ctrlKey || event.metaKey || event.altKey) return;
    const card = this.view.hand[i];
    if (event.key === "m" || (event.key === " " && this.multiPlay())) {
      event.preventDefault(); // Space no longer clicks the card: it only marks
      if (this.marked.includes(i) || this.groupable().has(card)) this.onCard(i);
      else if (this.seat !== null && this.view.to_play === this.seat && this.view.legal.length) {
        this.toast(t("{card} cannot go down with another card now.", { card: cardPretty(card) }));
      }
      return;
    }
    if (event.key === "Enter" && !this.marked.length && this.multiPlay() && this.playsOf(card).length) {
      event.preventDefault(); // alone: played at once (a click would mark it)
      this.playCard(card);
      return;
    }
    if (event.key === "Enter" && this.marked.length) {
      event.preventDefault();
      if (!this.marked.includes(i)) {
        if (!this.canJoin(this.view.hand[i])) return;
        this.marked.push(i);
      }
      this.marked = [...this.marked.filter((k) => k !== i), i]; // the card with the focus on top
      if (this.markedPlays().length) this.playMarked();
      else this.renderMarks();
      return;
    }
    let j = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (event.key === "Home") j = 0;
    else if (event.key === "End") j = cards.length - 1;
    if (j === null) return;
    event.preventDefault();
    cards[j].focus();
  }

  // ---------------------------------------------------------------- the page

  build() {
    this.page = el("div", { class: "table-page", id: "table", "data-code": this.code });
    this.rulesDialog = el("dialog", { class: "dialog rules-panel", id: "rules-panel", "aria-labelledby": "rules-title" });
    this.confirmDialog = this.buildConfirmDialog();
    this.root.replaceChildren(this.page, this.rulesDialog, this.confirmDialog);
    this.playing = false;
  }

  /** The waiting room: built once, then only its changing parts are updated (a name being typed stays). */
  renderWaiting() {
    const table = this.table;
    document.title = `${tableTitle(table)} — ${t("Crazy Eights")}`;
    document.getElementById("bar-info").textContent = tableTitle(table);
    this.page.dataset.status = "waiting";
    if (!this.room || !this.room.box.isConnected) this.buildWaiting();
    const room = this.room;
    const mine = seatOf(this.code);
    const host = this.hostToken;
    const free = table.seats.filter((s) => s.kind === "free");
    room.seats.replaceChildren(...table.seats.map((s, i) => el("li", {
      class: `seat-row ${s.kind}`, "data-seat": i,
    }, el("span", { class: "seat-number" }, i + 1),
    el("span", { class: "seat-name" }, s.kind === "free" ? t("free seat") : seatName(s)),
    i === this.seat ? el("span", { class: "badge you" }, t("You")) : null,
    s.kind === "bot" ? el("span", { class: "badge level" }, `${t("bot")} · ${levelName(s.bot)}`) : null,
    s.kind === "person" ? el("span", { class: `dot ${s.connected ? "on" : "off"}`, title: s.connected ? t("connected") : t("away") }) : null)));
    room.notice.textContent = this.notice;
    room.notice.hidden = !this.notice;
    const joining = !mine && free.length > 0 && !this.watching;
    room.join.hidden = !joining;
    room.host.hidden = joining || !host;
    room.start.disabled = free.length > 0;
    room.seatBots.hidden = free.length === 0;
    room.waiting.hidden = joining;
    room.waiting.textContent = free.length ? t("Waiting for players…") : t("Waiting for the host to start the match…");
    if (host && !free.length) room.waiting.hidden = true;
    // A table made through the API has its host wherever its host token is: say how to start.
    room.hostHelp.hidden = Boolean(host) || Boolean(free.length) || joining;
    if (joining && !room.focused) {
      room.focused = true;
      room.name.focus();
    }
  }

  buildWaiting() {
    const table = this.table;
    const invite = `${location.origin}/t/${this.code}`;
    const inviteField = el("input", { id: "invite", readonly: true, value: invite, "aria-label": t("Invite friends with this link:") });
    inviteField.addEventListener("focus", () => inviteField.select());
    const copy = el("button", { type: "button", class: "small-button", id: "copy-invite" }, t("Copy"));
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(invite);
      } catch {
        inviteField.select();
        document.execCommand("copy");
      }
      copy.textContent = t("Copied");
    });
    const name = el("input", { id: "join-name", required: true, maxlength: 24, autocomplete: "nickname", value: savedName() });
    const error = el("p", { class: "error", role: "alert", hidden: true });
    const join = el("form", { class: "join-form" },
      el("h2", {}, t("Join this table")),
      el("label", { class: "field" }, el("span", {}, t("Your name")), name),
      error,
      el("div", { class: "dialog-buttons" },
        el("button", { type: "button", id: "watch", onclick: () => { this.watching = true; this.renderWaiting(); } }, t("Watch")),
        el("button", { type: "submit", class: "primary", id: "join" }, t("Join"))));
    join.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await this.join(name.value.trim());
      } catch (exc) {
        error.textContent = exc.message;
        error.hidden = false;
      }
    });
    const start = el("button", { type: "button", class: "primary big", id: "start" }, t("Start the match"));
    start.addEventListener("click", () => this.socket.send("start", { token: this.hostToken }));
    const seatBots = el("button", { type: "button", id: "seat-bots" }, t("Seat bots in the free seats"));
    seatBots.addEventListener("click", () => {
      for (const s of this.table.seats.filter((x) => x.kind === "free")) {
        this.socket.send("seat_bot", { token: this.hostToken, seat: s.seat, bot: "greedy" });
      }
    });
    const room = {
      seats: el("ul", { class: "seat-list", "aria-live": "polite" }),
      notice: el("p", { class: "notice", role: "status" }),
      waiting: el("p", { class: "muted waiting-host" }),
      hostHelp: el("p", { class: "muted small host-help", id: "host-help", hidden: true },
        t("Whoever made this table holds its host token. Made through the API? Open {link} with the host token in place of TOKEN to start it from this page (the answer’s host_link), or send start with it on the table’s WebSocket.",
          { link: `/t/${this.code}#host=TOKEN` })),
      host: el("div", { class: "dialog-buttons" },
        el("button", { type: "button", class: "subtle", id: "close-table", onclick: () => this.askClose() }, t("Close the table")),
        seatBots, start),
      join, name, start, seatBots, focused: false,
    };
    room.box = el("section", { class: "panel narrow waiting-room" },
      el("div", { class: "waiting-head" }, el("h1", {}, tableTitle(table)), this.rulesButton()),
      table.title ? el("p", { class: "muted" }, t("{title}, {n} players", { title: tableTitle({ ...table, title: "" }), n: table.players })) : null,
      el("div", { class: "invite" }, el("label", { for: "invite" }, t("Invite friends with this link:")),
        el("div", { class: "invite-row" }, inviteField, copy)),
      room.seats, room.notice, join, room.waiting, room.hostHelp, room.host,
      el("a", { class: "button subtle", href: "/" }, t("Back to the lobby")));
    this.room = room;
    this.page.replaceChildren(room.box);
  }

  buildPlaying() {
    this.playing = true;
    this.page.dataset.status = "playing";
    this.opponents = el("div", { class: "opponents", id: "opponents" });
    this.stock = el("button", { type: "button", class: "pile stock", id: "stock", onclick: () => this.send("draw") });
    this.discard = el("div", { class: "pile discard", id: "discard", role: "img" });
    this.tableInfo = el("div", { class: "table-info", id: "table-info" });
    this.lastMove = el("p", { class: "last-move", id: "last-move" });
    this.status = el("p", { class: "status", id: "status", "aria-live": "polite" });
    this.hintLine = el("p", { class: "hint-line", id: "hint-line", role: "status", "aria-live": "polite", hidden: true });
    this.actions = el("div", { class: "actions", id: "actions" });
    this.hand = el("div", { class: "hand", id: "hand", role: "group", "aria-label": t("Your hand") });
    this.hand.addEventListener("keydown", (event) => this.onHandKey(event));
    this.hand.addEventListener("focusin", (event) => {
      this.handIndex = [...this.hand.children].indexOf(event.target);
    });
    // Keys or pointer: after a move made with keys, the focus comes back to the hand.
    document.addEventListener("keydown", () => { this.usingKeys = true; }, true);
    document.addEventListener("pointerdown", () => { this.usingKeys = false; }, true);
    this.me = el("div", { class: "me", id: "me" });
    this.side = el("aside", { class: "side", id: "side" });
    this.direction = el("div", { class: "direction-ring", id: "direction", "aria-hidden": "true", hidden: true });
    this.hostBar = el("div", { class: "host-bar", id: "host-bar", hidden: true });
    this.suitDialog = this.buildSuitDialog();
    this.summary = el("dialog", { class: "dialog summary", id: "summary", "aria-labelledby": "summary-title" });
    this.summary.addEventListener("cancel", (event) => event.preventDefault());
    this.page.replaceChildren(
      el("section", { class: "play-area" },
        el("div", { class: "table-tools" }, this.rulesButton(), this.settingsBar(), this.hostBar),
        el("div", { class: "felt", id: "felt" },
          this.direction,
          this.opponents,
          el("div", { class: "centre" }, this.stock, this.discard, this.tableInfo)),
        this.lastMove, this.status, this.hintLine, this.actions, this.me, this.hand),
      this.side, this.suitDialog, this.summary,
      el("div", { class: "fly-layer", id: "fly-layer", "aria-hidden": "true" }),
      el("div", { class: "toast", id: "toast", role: "alert", hidden: true }));
    clearInterval(this.ticker);
    this.ticker = setInterval(() => this.renderStatus(), 1000);
  }

  buildSuitDialog() {
    const dialog = el("dialog", { class: "dialog suit-picker", id: "suit-picker", "aria-labelledby": "picker-title" },
      el("h2", { id: "picker-title" }),
      el("div", { class: "picker-body" },
        el("div", { class: "picker-card", "aria-hidden": "true" }),
        el("p", { class: "picker-hint" })),
      el("div", { class: "suits" }, SUITS.map((suit) => el("button", {
        type: "button", class: `suit-button ${suit === "h" || suit === "d" ? "red" : "black"}`,
        "data-suit": suit, "aria-label": suitWords(suit), html: suitSVG(suit),
      }, el("span", {}, suitWords(suit)), el("kbd", {}, suit)))),
      el("div", { class: "dialog-buttons" },
        el("button", { type: "button", id: "picker-cancel", onclick: () => dialog.close() }, t("Cancel"))));
    dialog.addEventListener("click", (event) => {
      const button = event.target.closest("[data-suit]");
      if (button && button.dataset.action) {
        dialog.close();
        this.send(button.dataset.action);
      }
    });
    return dialog;
  }

  render() {
    const view = this.view;
    const table = this.table;
    document.title = `${t("Round {n}", { n: view.round })} — ${tableTitle(table)}`;
    document.getElementById("bar-info").textContent = `${tableTitle(table)} · ${t("Round {n}", { n: view.round })}`;
    this.page.dataset.players = view.players;
    this.page.dataset.version = this.state.version;
    this.page.dataset.round = view.round;
    this.page.dataset.myTurn = String(this.seat !== null && view.to_play === this.seat && view.legal.length > 0);
    this.page.dataset.roundOver = String(view.round_over);
    this.page.dataset.matchOver = String(view.match_over);
    this.root.querySelector(".play-area").classList.remove("busy");
    this.renderPods();
    this.renderCentre();
    this.renderHostBar();
    this.setInert();
    this.lastMove.textContent = this.log.length ? this.log[this.log.length - 1] : "";
    this.renderStatus();
    this.renderActions();
    this.renderMe();
    this.renderHand();
    this.renderSide();
    this.renderHint();
    this.renderSummary();
  }

  /** Other seats round the table, in the order of play from this one: the next player on
   * the left, then across, then on the right (an arc over the top for more players). */
  renderPods() {
    const view = this.view;
    if (!view) return;
    const names = this.names();
    const n = view.players;
    const start = this.seat === null ? 0 : this.seat + 1;
    const seats = [];
    for (let k = 0; k < n; k += 1) {
      const s = (start + k) % n;
      if (s !== this.seat) seats.push(s);
    }
    const angles = arc(seats.length);
    const host = this.hostToken && this.table.status === "playing";
    this.opponents.dataset.count = seats.length;
    this.opponents.parentElement.classList.toggle("many", seats.length >= 4); // a taller felt
    this.opponents.parentElement.classList.toggle("crowded", seats.length >= 7); // smaller seats
    this.opponents.replaceChildren(...seats.map((s, k) => {
      const info = this.table.seats[s];
      const count = view.hand_sizes[s];
      const shown = Math.min(count, 12);
      const fan = el("div", { class: "fan", "aria-hidden": "true" });
      fan.style.setProperty("--count", shown);
      for (let i = 0; i < shown; i += 1) {
        const back = el("span", { class: "mini back", html: backSVG() });
        back.style.setProperty("--i", i - (shown - 1) / 2);
        fan.append(back);
      }
      const away = info.kind === "person" && !info.connected;
      const place = this.placeOf(s);
      const out = place ? t("Out: place {n}", { n: place }) : null;
      const label = `${names[s]}, ${tn("{n} card", "{n} cards", count)}, ${t("Score")} ${view.scores[s]}${away ? `, ${t("away")}` : ""}${out ? `, ${out}` : ""}`;
      const pod = el("div", {
        class: `pod${view.to_play === s ? " turn" : ""}${info.kind === "bot" ? " bot" : ""}${away ? " away" : ""}${place ? " out" : ""}`,
        "data-seat": s, "data-place": place || null, role: "group", "aria-label": label,
      }, place ? el("span", { class: "placing", title: out }, out) : null, fan,
      el("div", { class: "pod-name" },
        info.kind === "person" ? el("span", { class: `dot ${info.connected ? "on" : "off"}`, title: info.connected ? t("connected") : t("away") }) : null,
        el("span", { class: "name" }, names[s]),
        info.kind === "bot" ? el("span", { class: "badge level", title: `${t("bot")} · ${levelName(info.bot)}` }, levelName(info.bot)) : null),
      el("div", { class: "pod-meta" },
        el("span", { class: "count" }, tn("{n} card", "{n} cards", count)),
        el("span", { class: "score" }, view.scores[s])),
      host && away ? el("button", {
        type: "button", class: "small-button bot-in", id: `bot-in-${s}`, onclick: () => this.seatBot(s),
        title: t("{name} is away: a bot plays for them from now on.", { name: names[s] }),
      }, t("Put a bot in")) : null);
      const angle = angles[k] * Math.PI / 180;
      pod.style.setProperty("--cx", Math.cos(angle).toFixed(3));
      pod.style.setProperty("--cy", Math.sin(angle).toFixed(3));
      return pod;
    }));
  }

  /** Host only: close the table (during the match; bots go in from each away player's seat). */
  renderHostBar() {
    const host = Boolean(this.hostToken) && this.table.status === "playing";
    this.hostBar.hidden = !host;
    if (host && !this.hostBar.firstChild) {
      this.hostBar.append(el("button", {
        type: "button", class: "subtle small-button", id: "close-table", onclick: () => this.askClose(),
      }, t("Close the table")));
    }
  }

  renderCentre() {
    const view = this.view;
    const canDraw = view.legal.includes("draw");
    this.stock.replaceChildren(
      el("span", { class: "card-box back", html: backSVG() }),
      el("span", { class: "pile-count" }, view.stock));
    this.stock.classList.toggle("playable", canDraw);
    this.stock.disabled = !canDraw;
    this.stock.setAttribute("aria-label", `${t("Stock")}: ${tn("{n} card", "{n} cards", view.stock)}${canDraw ? ` — ${t("Draw")}` : ""}`);
    if (!view.stock) this.stock.firstChild.classList.add("empty");

    const pile = view.discard.slice(-3);
    const up = view.up_card;
    this.discard.replaceChildren(...pile.map((card, i) => {
      const node = el("span", { class: `card-box face${i === pile.length - 1 ? " top" : ""}`, "data-card": card, html: faceSVG(card) });
      node.style.setProperty("--tilt", `${((view.discard.length - pile.length + i) * 37) % 13 - 6}deg`);
      return node;
    }));
    this.discard.setAttribute("aria-label", t("Up-card: {card} ({words})", { card: cardPretty(up), words: cardWords(up) }));

    const info = [];
    if (view.free) info.push(el("span", { class: "chip" }, t("Any card may be played")));
    else if (view.suit && (up[0] === "X" || up[1] !== view.suit || namedLast(view.history))) {
      info.push(el("span", { class: `chip suit-chip ${view.suit === "h" || view.suit === "d" ? "red" : "black"}`, id: "named-suit", "data-suit": view.suit },
        el("span", { html: suitSVG(view.suit) }), t("Suit to follow: {suit}", { suit: SUIT_SYMBOLS[view.suit] })));
    }
    if (view.pending_draw) info.push(el("span", { class: "chip warn" }, t("Forced draw waiting: {n}", { n: view.pending_draw })));
    // The direction matters only where a card can reverse it, with more than two players.
    const turning = Boolean(this.rules && this.rules.reverse) && view.players > 2;
    this.direction.hidden = !turning;
    this.page.dataset.direction = turning ? (view.direction === 1 ? "clockwise" : "counter-clockwise") : "";
    if (turning) {
      const clockwise = view.direction === 1;
      info.push(el("span", { class: "chip direction-chip", id: "direction-chip" }, t("Direction: {arrow}", {
        arrow: clockwise ? `↻ ${t("clockwise")}` : `↺ ${t("counter-clockwise")}` })));
      this.direction.classList.toggle("reversed", !clockwise);
      this.direction.innerHTML = directionSVG(clockwise);
    }
    this.tableInfo.replaceChildren(...info);
  }

  statusText() {
    const view = this.view;
    if (view.round_over) return t("The round is over.");
    const names = this.names();
    if (view.to_play === null) return "";
    const place = this.seat === null ? 0 : this.placeOf(this.seat);
    if (place) return t("You are out in place {n}: the others play on.", { n: place });
    if (view.to_play !== this.seat) {
      if (view.naming) return t("{name} names the suit of the starter…", { name: names[view.to_play] });
      return t("{name} is playing…", { name: names[view.to_play] });
    }
    const legal = view.legal;
    if (!legal.length) return "";
    const plays = legal.filter((a) => cardOf(a));
    if (this.naming()) return t("The starter {card} is wild: name the suit to follow.", { card: cardPretty(view.up_card) });
    if (this.marked.length) {
      const cards = this.markedCards().map(cardPretty).join(" ");
      if (this.markedPlays().length) return t("Marked: {cards}. Mark more of the same rank, or play them.", { cards });
      const tops = topsOfCards(legal, this.markedCards());
      if (tops.length) { // SW3: the card marked last goes on top, and the rules refuse it there
        const names = tops.map(cardPretty);
        const card = names.length > 1 ? t("{list} or {last}", { list: names.slice(0, -1).join(", "), last: names.at(-1) }) : names[0];
        return t("{cards} go down together only with {card} on top: mark it last.", { cards, card });
      }
      return t("Marked: {cards}. Mark another card to go with them.", { cards });
    }
    if (view.skip_due && legal.includes("pass")) {
      return t("{card} skips you: pass the skip on with a card of its rank, or accept it.", { card: cardPretty(view.up_card) });
    }
    if (legal.includes("take")) return t("Take the top card of the stock?");
    if (view.drawn && plays.some((a) => cardOf(a) === view.drawn)) {
      // What may be done with the card just drawn, from the legal actions (HA4 may, HF5 must).
      const card = cardPretty(view.drawn);
      if (legal.includes("pass")) return t("You drew {card}: play it or keep it (Pass).", { card });
      if (plays.every((a) => cardOf(a) === view.drawn)) return t("You drew {card}: play it.", { card });
    }
    if (view.served && legal.includes("pass")) { // PE5: the forced draw is taken, the turn goes on
      return t("You took the cards: play one that fits, or pass.");
    }
    if (view.pending_draw) {
      const n = view.pending_draw;
      return plays.length
        ? tn("{n} card to draw: answer with a card or draw it.", "{n} cards to draw: answer with a card or draw them.", n)
        : tn("{n} card to draw.", "{n} cards to draw.", n);
    }
    if (view.must_play_again && plays.length) return t("You must play again.");
    if (legal.some((a) => a.endsWith("!"))) {
      return view.hand.length === 1 ? t("Call going out with this play, or pay the penalty.")
        : t("Announce your last card with this play, or pay the penalty.");
    }
    if (plays.some((a) => cardsOf(a).length > 1)) return t("Your turn: play a highlighted card, or mark several of one rank and play them together.");
    if (plays.length) return t("Your turn: play a highlighted card.");
    if (legal.includes("draw")) return t("Nothing to play: draw a card.");
    return t("Nothing to play and nothing to draw: pass.");
  }

  renderStatus() {
    if (!this.view) return;
    const closed = this.page.dataset.status === "closed";
    let text = closed ? t("The host closed the table.") : this.online ? this.statusText() : t("Reconnecting…");
    if (this.timerEnd !== null && !this.view.round_over && this.online && !closed) {
      const left = Math.max(0, Math.ceil((this.timerEnd - Date.now()) / 1000));
      text += ` (${t("turn timer: {s} s", { s: left })})`;
    }
    if (this.status.textContent !== text) this.status.textContent = text;
    this.status.classList.toggle("mine", this.page.dataset.myTurn === "true");
  }

  renderActions() {
    const legal = this.view.legal;
    const button = (id, label, action, key) => el("button", {
      type: "button", id, class: "action", disabled: !legal.includes(action), onclick: () => this.send(action),
      "aria-keyshortcuts": key,
    }, label, el("kbd", { "aria-hidden": "true" }, key));
    const skip = this.view.skip_due > 0 && legal.includes("pass"); // MM5, PE8: accept the skip
    const buttons = [button("draw", t("Draw"), "draw", "d"), button("pass", skip ? t("Accept the skip") : t("Pass"), "pass", "p")];
    if (legal.includes("take")) buttons.push(button("take", t("Take"), "take", "t"));
    if (this.naming()) {
      buttons.unshift(el("button", {
        type: "button", id: "name-suit", class: "action primary", "aria-keyshortcuts": "n", onclick: () => this.nameStarter(),
      }, t("Name the suit"), el("kbd", { "aria-hidden": "true" }, "n")));
    }
    if (this.marked.length) {
      const plays = this.markedPlays();
      const cards = plays.length ? cardsOf(plays[0]) : this.markedCards();
      buttons.unshift(el("button", {
        type: "button", id: "play-marked", class: "action primary", disabled: !plays.length,
        onclick: () => this.playMarked(),
      }, t("Play {cards}", { cards: cards.map(cardPretty).join(" ") })));
    }
    if (legal.some((a) => a.endsWith("!"))) {
      const out = this.view.hand.length === 1; // MM9, TS10: the call that goes with the last card
      buttons.push(el("button", {
        type: "button", id: "announce", class: `action announce${this.announce ? " on" : ""}`,
        "aria-pressed": String(this.announce), "aria-keyshortcuts": "a", onclick: () => this.toggleAnnounce(),
      }, out ? t("Call going out") : t("Announce last card"), el("kbd", { "aria-hidden": "true" }, "a")));
    }
    if (this.practising() && !this.view.round_over) {
      const best = this.hinted();
      for (const b of buttons) if (best && b.id === best) b.classList.add("hinted");
      buttons.push(el("button", {
        type: "button", id: "hint", class: "action practice", disabled: !this.canHint(), "aria-keyshortcuts": "h",
        onclick: () => this.askHint(),
      }, t("Hint"), el("kbd", { "aria-hidden": "true" }, "h")), el("button", {
        type: "button", id: "undo", class: "action practice", disabled: !this.canUndo(), "aria-keyshortcuts": "u",
        onclick: () => this.askUndo(),
      }, t("Undo"), el("kbd", { "aria-hidden": "true" }, "u")));
    }
    if (this.view.round_over && !this.view.match_over) {
      const next = el("button", { type: "button", id: "next-round-bar", class: "action primary", onclick: () => this.nextRound() }, t("Next round"));
      buttons.splice(0, buttons.length, next);
    }
    if (this.seat === null && !this.hostToken) buttons.length = 0;
    this.actions.replaceChildren(...buttons);
  }

  renderMe() {
    const view = this.view;
    if (this.seat === null) {
      this.me.replaceChildren(el("span", { class: "badge" }, t("watching")));
      return;
    }
    const name = this.names()[this.seat];
    this.me.className = `me${view.to_play === this.seat ? " turn" : ""}`;
    const place = this.placeOf(this.seat);
    this.me.replaceChildren(...[
      el("span", { class: "name" }, name), el("span", { class: "badge you" }, t("You")),
      place ? el("span", { class: "placing", id: "my-place" }, t("Out: place {n}", { n: place })) : null,
      el("span", { class: "count" }, tn("{n} card", "{n} cards", view.hand.length)),
      el("span", { class: "score", title: t("Score") }, view.scores[this.seat])].filter(Boolean));
  }

  renderHand() {
    const view = this.view;
    const active = document.activeElement;
    let focused = this.hand.contains(active) ? [...this.hand.children].indexOf(active) : -1;
    if (focused < 0 && this.usingKeys && (!active || active === document.body) && this.handIndex >= 0
        && !document.querySelector("dialog[open]")) focused = this.handIndex;
    const myTurn = this.seat !== null && view.to_play === this.seat;
    const groupable = myTurn ? this.groupable() : new Set();
    const marking = this.marked.length > 0;
    const top = marking ? this.markedTop() : -1;
    const best = this.hinted();
    const bestCard = best ? cardOf(best) : null;
    const previous = this.handCards || [];
    const left = [...previous];
    const cards = view.hand.map((card, i) => {
      const marked = this.marked.includes(i);
      const playable = myTurn && (marking ? marked || this.canJoin(card)
        : this.playsOf(card).length > 0 || groupable.has(card));
      const words = cardWords(card);
      const k = left.indexOf(card);
      const arrived = previous.length > 0 && k < 0;
      if (k >= 0) left.splice(k, 1);
      const node = el("button", {
        type: "button",
        class: `card${playable ? " playable" : ""}${marked ? " marked" : ""}${i === top ? " top-card" : ""}${view.drawn === card ? " drawn" : ""}${arrived ? " arrived" : ""}${card === bestCard ? " hinted" : ""}`,
        "data-card": card,
        "aria-label": i === top ? t("{card}, on top", { card: words }) : playable ? t("{card}, playable", { card: words }) : words,
        "aria-disabled": String(!playable),
        "aria-pressed": groupable.has(card) ? String(marked) : null,
        html: faceSVG(card),
        onclick: () => this.onCard(i),
      });
      if (view.drawn === card) node.title = t("just drawn");
      return node;
    });
    this.handCards = [...view.hand];
    this.hand.style.setProperty("--n", Math.max(cards.length, 1));
    this.hand.replaceChildren(...cards);
    this.hand.classList.toggle("announcing", this.announce);
    if (focused >= 0 && cards.length) cards[Math.min(focused, cards.length - 1)].focus();
  }

  renderSide() {
    if (!this.view || !this.side) return;
    const view = this.view;
    const names = this.names();
    const rows = names.map((name, s) => el("tr", { class: `${view.to_play === s ? "turn" : ""}${s === this.seat ? " mine" : ""}` },
      el("th", { scope: "row" }, name),
      el("td", {}, this.placeOf(s) ? t("Out: place {n}", { n: this.placeOf(s) }) : view.hand_sizes[s]),
      el("td", { class: "num" }, view.scores[s])));
    const logList = el("ol", { class: "log", id: "log", "aria-live": "polite", "aria-relevant": "additions" },
      this.log.slice(-LOG_LINES).map((line) => el("li", {}, line)));
    this.side.replaceChildren(
      el("section", { class: "panel scores" },
        el("h2", {}, t("Scores")),
        this.target ? el("p", { class: "muted small" }, this.goalText()) : null,
        el("table", {}, el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Player")),
          el("th", { scope: "col" }, t("Hand")), el("th", { scope: "col", class: "num" }, t("Score")))),
        el("tbody", {}, rows))),
      el("section", { class: "panel log-panel" }, el("h2", {}, t("Log")), logList),
      el("p", { class: "muted small keys", id: "keys" }, this.keyLine()),
      this.multiPlay() ? el("p", { class: "muted small keys", id: "keys-marking" }, t("Several cards of one rank: m or Space marks a card, Enter plays the marked cards with that card on top, Esc clears.")) : "");
    logList.scrollTop = logList.scrollHeight;
  }

  /** The end of a round: every hand, what each card counts, who scores what and why, who leads. */
  renderSummary() {
    const view = this.view;
    const dialog = this.summary;
    if (!view.round_over) {
      if (dialog.open) dialog.close();
      return;
    }
    const names = this.names();
    const hands = view.revealed || [];
    const finished = view.finished || [];
    // TS11: under play_on the first out won the round, whoever else emptied their hand since.
    const out = finished.length ? finished[0] : hands.findIndex((h) => h.length === 0);
    const title = out >= 0 ? t("Round {n} is over: {name} went out.", { n: view.round, name: names[out] })
      : t("Round {n} is over: blocked, nobody could play.", { n: view.round });
    const points = view.round_points || [];
    const worth = this.rules ? this.rules.points : null;
    const value = (cards) => (worth ? cards.reduce((sum, card) => sum + (worth[card[0]] ?? 0), 0) : null);
    const values = names.map((_, s) => value(hands[s] || []));
    const places = this.placings(values);
    // SW11: where a round is won by going out, what the hands are worth does not count
    // (a blocked round goes to the lowest hand: then it does)
    const valued = !(this.rules && this.rules.scoring === "rounds-won" && out >= 0);
    const rows = names.map((name, s) => {
      const cards = hands[s] || [];
      return el("tr", { class: s === this.seat ? "mine" : "", "data-seat": s, "data-place": places ? places[s] : null },
        el("th", { scope: "row" }, name),
        places ? el("td", { class: "num place" }, places[s]) : null,
        el("td", {}, el("div", { class: "count-hand", role: "img", "aria-label": cards.map(cardWords).join(", ") || "—" },
          cards.length ? cards.map((card) => el("span", { class: "counted", "data-card": card },
            el("span", { class: "count-card", html: indexSVG(card) }),
            worth && valued ? el("span", { class: "card-points" }, worth[card[0]]) : null)) : el("span", { class: "muted" }, "—"))),
        valued ? el("td", { class: "num hand-value" }, values[s] === null ? "" : `= ${values[s]}`) : null,
        el("td", { class: "num round-points" }, points[s] === undefined ? "" : (points[s] > 0 ? `+${points[s]}` : String(points[s]))),
        el("td", { class: "num total" }, view.scores[s]));
    });
    const parts = [el("h2", { id: "summary-title" }, title),
      el("p", { class: "how", id: "summary-how" }, this.howCounted(out, values, names)),
      places ? el("p", { class: "how", id: "summary-placings" }, t("Placings: {list}", {
        list: names.map((_, s) => s).sort((a, b) => places[a] - places[b] || a - b)
          .map((s) => `${places[s]}. ${names[s]}`).join(" · ") })) : null,
      ...(view.penalties || []).map((n, s) => (n ? el("p", { class: "how penalty" },
        tn("{name}: {n} penalty point (overflow)", "{name}: {n} penalty points (overflow)", n, { name: names[s] })) : null)),
      el("div", { class: "summary-scroll" }, el("table", { class: "summary-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Player")),
          places ? el("th", { scope: "col", class: "num" }, t("Place")) : null, el("th", { scope: "col" }, t("Cards left")),
          valued ? el("th", { scope: "col", class: "num" }, t("Value")) : null, el("th", { scope: "col", class: "num" }, t("Round")),
          el("th", { scope: "col", class: "num" }, t("Total")))),
        el("tbody", {}, rows)))];
    if (view.match_over) {
      const winners = (view.winners || []).map((s) => names[s]);
      const again = this.table.rematch;
      const seated = Boolean(seatOf(this.code) || this.hostToken);
      let rematch = null;
      if (again) {
        rematch = el("a", { class: "button primary", id: "rematch-link", href: `/t/${encodeURIComponent(again)}` },
          seated ? t("Go to the rematch") : t("Watch the rematch"));
      } else if (seated) {
        rematch = el("button", { type: "button", class: "primary", id: "rematch", onclick: () => this.askRematch() }, t("Rematch"));
      }
      parts.push(el("p", { class: "match-over" }, tn("The match is over after {n} round.", "The match is over after {n} rounds.", view.round)),
        el("p", { class: "winners" }, tn("Winner: {names}.", "Winners: {names}.", winners.length, { names: winners.join(", ") })),
        seated && !again ? el("p", { class: "how", id: "rematch-how" }, t("Rematch: a new table with the same rules, seats and bots; the players here move to it.")) : null,
        el("div", { class: "dialog-buttons" }, el("a", { class: `button${rematch ? "" : " primary"}`, href: "/" }, t("Back to the lobby")), rematch),
        el("p", { class: "how" }, el("a", { id: "record-link", href: `/t/${encodeURIComponent(this.code)}/record` }, t("Every round of the match and its review"))));
    } else {
      parts.push(el("p", { class: "leader", id: "summary-leader" }, this.leaderText(names)));
      const seated = seatOf(this.code) || this.hostToken;
      const next = seated ? el("button", { type: "button", class: "primary", id: "next-round" }, t("Next round")) : null;
      if (next) next.addEventListener("click", () => this.nextRound());
      parts.push(el("div", { class: "dialog-buttons" },
        el("button", { type: "button", onclick: () => dialog.close() }, t("Close")), next));
    }
    parts.push(reviewButton(this.code, view.round));  // review.js: the person's own seat only
    dialog.replaceChildren(...parts.filter(Boolean));
    if (!dialog.open) dialog.showModal();
    const focus = dialog.querySelector("#next-round, #rematch, #rematch-link, a.button");
    if (focus) focus.focus();
  }

  /** The round's placings (TS11, TS12), 1 for the first out, or null where the rules place
   * nobody (without play_on or placings scoring). Players out are placed in the order they
   * went out; those still holding cards after them, by hand value, lowest first, tied
   * players sharing the better place (as the engine places them). */
  placings(values) {
    const view = this.view;
    const rules = this.rules;
    if (!rules || !(rules.play_on || rules.scoring === "placings")) return null;
    const finished = view.finished || [];
    const holding = values.map((_, s) => s).filter((s) => !finished.includes(s));
    return values.map((v, s) => (finished.includes(s) ? finished.indexOf(s) + 1
      : finished.length + 1 + holding.filter((o) => (values[o] ?? 0) < (v ?? 0)).length));
  }

  /** Why the round's points are what they are (from the rules' way of scoring). */
  howCounted(out, values, names) {
    const rules = this.rules;
    if (!rules || values.some((v) => v === null)) return "";
    const teams = rules.teams.includes(names.length);
    const note = teams ? ` ${t("Partners score together.")}` : "";
    const sum = (list) => (list.length > 1 ? `${list.join(" + ")} = ${list.reduce((a, b) => a + b, 0)}` : String(list[0] ?? 0));
    const others = (winners) => values.filter((_, s) => !winners.includes(s));
    if (rules.scoring === "placings") {  // TS12: placing minus one, lowest total wins
      return t("Each player scores their place minus one: 0 for the first out, {n} for the last.", { n: names.length - 1 }) + note;
    }
    if (rules.scoring === "rounds-won") {  // SW11, LC9, PE13: one point a round won
      if (out >= 0) return t("{name} went out and wins the round: 1 point.", { name: names[out] }) + note;
      return t("Blocked: the lowest hand wins the round and scores 1.") + note;
    }
    if (out >= 0 && rules.scoring === "winner-collects") {
      const mates = teams ? values.map((_, s) => s).filter((s) => s % 2 === out % 2) : [out];
      return t("{name} went out and scores the cards left in the other hands: {sum}.", { name: names[out], sum: sum(others(mates)) }) + note;
    }
    if (out < 0 && rules.blocked_scoring !== "own-hand") {
      const low = Math.min(...values);
      const winners = values.map((v, s) => (v === low ? s : -1)).filter((s) => s >= 0);
      const who = winners.map((s) => names[s]).join(", ");
      if (rules.blocked_scoring === "difference") {
        const list = others(winners).map((v) => v - low);
        return t("Blocked: the lowest hand ({names}) scores the difference to each other hand: {sum}.", { names: who, sum: sum(list) }) + note;
      }
      return t("Blocked: the lowest hand ({names}) scores the cards left in the other hands: {sum}.", { names: who, sum: sum(others(winners)) }) + note;
    }
    return t("Every player scores the cards left in their own hand.") + note;
  }

  /** The match's target: points, or rounds won (SW11: ``scoring = "rounds-won"``). */
  goalText() {
    if (this.rules && this.rules.scoring === "rounds-won") return tn("Match: the first to win {n} round", "Match: the first to win {n} rounds", this.target);
    return t("Match to {target} points", { target: this.target });
  }

  /** Who is ahead in the match, and whether that means the lowest or the highest total. */
  leaderText(names) {
    const scores = this.view.scores;
    const lowest = this.rules ? this.rules.lowest_wins : false;
    const best = lowest ? Math.min(...scores) : Math.max(...scores);
    const ahead = names.filter((_, s) => scores[s] === best).join(", ");
    const rule = lowest ? t("Lowest total wins") : t("Highest total wins");
    const goal = this.target ? ` · ${this.goalText()}` : "";
    return `${t("Ahead: {names} with {score}.", { names: ahead, score: best })} ${rule}${goal}.`;
  }

  // ---------------------------------------------------------------- motion

  /** Where things are before a change (so they can glide from there). */
  measure() {
    if (!this.playing) return null;
    const rects = { cards: {}, pods: {}, stock: this.stock.getBoundingClientRect(), hand: this.hand.getBoundingClientRect() };
    for (const node of this.hand.children) rects.cards[node.dataset.card] = node.getBoundingClientRect();
    for (const node of this.opponents.children) rects.pods[node.dataset.seat] = node.querySelector(".fan").getBoundingClientRect();
    return rects;
  }

  animate(before, message, rects) {
    if (!MOTION || !rects) return;
    const { seat, action } = message.last;
    const card = cardOf(action);
    const from = (s) => (s === this.seat ? rects.hand : rects.pods[s]);
    if (card) {
      const top = this.discard.querySelector(".top");
      const origin = (seat === this.seat && rects.cards[card]) || from(seat);
      if (top && origin) glide(top, origin, 320);
    }
    const after = message.view.hand_sizes;
    for (let s = 0; s < after.length; s += 1) {
      const gained = after[s] - before.hand_sizes[s] + (s === seat ? cardsOf(action).length : 0);
      if (gained <= 0) continue;
      const target = s === this.seat ? this.hand.getBoundingClientRect()
        : this.opponents.querySelector(`[data-seat="${s}"] .fan`)?.getBoundingClientRect();
      if (target) this.flyBacks(rects.stock, target, Math.min(gained, 4));
    }
  }

  flyBacks(from, to, count) {
    const layer = document.getElementById("fly-layer");
    for (let i = 0; i < count; i += 1) {
      const node = el("span", { class: "flying back", html: backSVG() });
      node.style.left = `${from.left}px`;
      node.style.top = `${from.top}px`;
      node.style.width = `${from.width}px`;
      node.style.height = `${from.height}px`;
      layer.append(node);
      const dx = to.left + to.width / 2 - (from.left + from.width / 2);
      const dy = to.top + to.height / 2 - (from.top + from.height / 2);
      const animation = node.animate([
        { transform: "translate(0, 0) scale(1)", opacity: 1 },
        { transform: `translate(${dx}px, ${dy}px) scale(0.6)`, opacity: 0.2 },
      ], { duration: 360, delay: i * 90, easing: "cubic-bezier(.3,.7,.4,1)", fill: "backwards" });
      animation.onfinish = () => node.remove();
    }
  }

  toast(text) {
    const toast = document.getElementById("toast");
    if (!toast) return;
    toast.textContent = text;
    toast.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { toast.hidden = true; }, 5000);
  }
}

/** Where the other seats sit, in degrees (0: right, 90: down, 180: left, 270: across),
 * the next player first: across for one, left and right above for two, then an arc over
 * the top from the left to the right. */
function arc(count) {
  if (count === 1) return [270];
  if (count === 2) return [210, 330];
  return Array.from({ length: count }, (_, i) => 180 + (i * 180) / (count - 1));
}

/** Two arrows chasing each other round the centre, the way play goes. */
function directionSVG(clockwise) {
  const head = (x, y, angle) => `<path d="M0 -9 12 0 0 9z" transform="translate(${x} ${y}) rotate(${angle})"/>`;
  // Arcs on an ellipse (viewBox 200×120): the top one left to right when clockwise.
  const top = clockwise ? "M22 52A80 42 0 0 1 170 40" : "M178 52A80 42 0 0 0 30 40";
  const bottom = clockwise ? "M178 68A80 42 0 0 1 30 80" : "M22 68A80 42 0 0 0 170 80";
  const heads = clockwise ? head(172, 42, 30) + head(28, 78, 210) : head(28, 42, 150) + head(172, 78, 330);
  return `<svg viewBox="0 0 200 120" preserveAspectRatio="none"><path d="${top}"/><path d="${bottom}"/>${heads}</svg>`;
}

/** Whether the last card played named a suit (a wild 8: "8h=s"). */
function namedLast(history) {
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const action = history[i][1];
    if (action.startsWith("=")) return true; // TS3, UC3: the starter's suit was named
    if (cardOf(action)) return action.includes("=");
  }
  return false;
}

/** Move a node from where `origin` was to where it is now. */
function glide(node, origin, duration) {
  const now = node.getBoundingClientRect();
  if (!now.width) return;
  const dx = origin.left + origin.width / 2 - (now.left + now.width / 2);
  const dy = origin.top + origin.height / 2 - (now.top + now.height / 2);
  const scale = Math.max(0.4, Math.min(1.6, origin.width / now.width));
  node.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${scale}) rotate(-12deg)` },
    { transform: "translate(0, 0) scale(1) rotate(0deg)" },
  ], { duration, easing: "cubic-bezier(.2,.8,.3,1)" });
}
