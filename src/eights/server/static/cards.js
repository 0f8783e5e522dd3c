// Cards drawn in SVG: corner indices, pips laid out as on real cards, framed
// court cards, a joker, and a card back. A card is its canonical text: "Qh",
// "Ts" (ten of spades), "X" (joker).

import { rankLabel } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const W = 200;
const H = 280;

const SUIT_PATHS = {
  h: '<path d="M50 92C20 66 3 48 3 29 3 13 15 3 29 3c10 0 17 6 21 15 4-9 11-15 21-15 14 0 26 10 26 26 0 19-17 37-47 63z"/>',
  d: '<path d="M50 2 88 50 50 98 12 50z"/>',
  s: '<path d="M50 3C62 22 96 40 96 63c0 14-10 22-22 22-9 0-16-4-20-11 1 11 6 18 15 24H31c9-6 14-13 15-24-4 7-11 11-20 11C14 85 4 77 4 63 4 40 38 22 50 3z"/>',
  c: '<circle cx="50" cy="26" r="21"/><circle cx="25" cy="59" r="21"/><circle cx="75" cy="59" r="21"/>'
    + '<circle cx="50" cy="52" r="12"/><path d="M46 55c0 21-5 33-15 43h38C59 88 54 76 54 55z"/>',
};

/** Put the suit shapes and the back's pattern in the page once (cards refer to them). */
export function installSprite() {
  if (document.getElementById("card-sprite")) return;
  const sprite = document.createElementNS(NS, "svg");
  sprite.id = "card-sprite";
  sprite.setAttribute("aria-hidden", "true");
  sprite.setAttribute("width", "0");
  sprite.setAttribute("height", "0");
  sprite.style.position = "absolute";
  let defs = "";
  for (const [suit, shape] of Object.entries(SUIT_PATHS)) {
    defs += `<symbol id="suit-${suit}" viewBox="0 0 100 100">${shape}</symbol>`;
  }
  defs += `<pattern id="back-lattice" width="16" height="16" patternUnits="userSpaceOnUse"
      patternTransform="rotate(45)"><rect width="16" height="16" fill="#1d4f91"/>
      <path d="M0 8h16M8 0v16" stroke="#5b8fd6" stroke-width="3"/>
      <circle cx="8" cy="8" r="3" fill="#e9eef7"/></pattern>
    <linearGradient id="face-sheen" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#f1efe8"/></linearGradient>`;
  sprite.innerHTML = `<defs>${defs}</defs>`;
  document.body.prepend(sprite);
}

export const isRed = (card) => card[1] === "h" || card[1] === "d";


function pip(suit, x, y, size, flip = false) {
  const half = size / 2;
  const turn = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#suit-${suit}" x="${x - half}" y="${y - half}" width="${size}" height="${size}"${turn}/>`;
}

// Pip centres for 2 to 10 (x: L C R; rows from the top); lower pips are drawn upside down.
const L = 62, C = 100, R = 138;
const PIPS = {
  2: [[C, 64], [C, 216]],
  3: [[C, 64], [C, 140], [C, 216]],
  4: [[L, 64], [R, 64], [L, 216], [R, 216]],
  5: [[L, 64], [R, 64], [C, 140], [L, 216], [R, 216]],
  6: [[L, 64], [R, 64], [L, 140], [R, 140], [L, 216], [R, 216]],
  7: [[L, 64], [R, 64], [C, 102], [L, 140], [R, 140], [L, 216], [R, 216]],
  8: [[L, 64], [R, 64], [C, 102], [L, 140], [R, 140], [C, 178], [L, 216], [R, 216]],
  9: [[L, 64], [R, 64], [L, 116], [R, 116], [C, 140], [L, 164], [R, 164], [L, 216], [R, 216]],
  T: [[L, 64], [R, 64], [C, 90], [L, 116], [R, 116], [L, 164], [R, 164], [C, 190], [L, 216], [R, 216]],
};

function corner(rank, suit) {
  const label = rankLabel(rank);
  const size = label.length > 1 ? 34 : 40;
  const spacing = label.length > 1 ? ' letter-spacing="-3"' : "";
  return `<g class="index"><text x="24" y="46" font-size="${size}"${spacing} text-anchor="middle">${label}</text>`
    + `${pip(suit, 24, 70, 26)}</g>`;
}

// Court figures: a double-headed bust (as on real cards), drawn with a few shapes so a
// king (crown and beard), a queen (tiara and long hair) and a jack (cap and feather) read
// apart even small. The robe takes the suit's colour; the suit sits on the dividing line.
const SKIN = "#f6d7b8";
const GOLD = "#e2b23c";

function headwear(rank, robe) {
  if (rank === "K") {
    return `<path d="M78 74 74 48 87 60 100 42 113 60 126 48 122 74z" fill="${GOLD}" stroke="#7a5a12" stroke-width="2" stroke-linejoin="round"/>`
      + `<circle cx="100" cy="42" r="4" fill="${robe}"/><circle cx="74" cy="48" r="3" fill="${robe}"/><circle cx="126" cy="48" r="3" fill="${robe}"/>`;
  }
  if (rank === "Q") {
    return `<path d="M80 74c-2-10 2-18 8-22 2 8 6 10 12 2 6 8 10 6 12-2 6 4 10 12 8 22z" fill="${GOLD}" stroke="#7a5a12" stroke-width="2" stroke-linejoin="round"/>`
      + `<circle cx="100" cy="60" r="3.5" fill="${robe}"/>`;
  }
  return `<path d="M76 74c0-14 10-22 24-22s24 8 24 22z" fill="${robe}" stroke="#222" stroke-width="1.5"/>`
    + `<path d="M122 64c10-12 16-22 14-32-8 6-14 16-18 28z" fill="${GOLD}" stroke="#7a5a12" stroke-width="1.5"/>`
    + `<path d="M76 72h48" stroke="${GOLD}" stroke-width="4"/>`;
}

function face(rank) {
  let hair = "";
  if (rank === "Q") hair = '<path d="M82 74c-6 14-6 26-2 36h10c-4-10-4-22 0-34zM118 74c6 14 6 26 2 36h-10c4-10 4-22 0-34z" fill="#6b3b1a"/>';
  if (rank === "J") hair = '<path d="M83 76c0 8 1 12 3 15h-4c-2-4-2-9-1-15zM117 76c0 8-1 12-3 15h4c2-4 2-9 1-15z" fill="#6b3b1a"/>';
  const beard = rank === "K" ? '<path d="M86 92c2 14 8 20 14 20s12-6 14-20c-4 4-8 5-14 5s-10-1-14-5z" fill="#8d8d8d" stroke="#555" stroke-width="1"/>' : "";
  return `${hair}<ellipse cx="100" cy="88" rx="15" ry="17" fill="${SKIN}" stroke="#7a5a3a" stroke-width="1.5"/>`
    + '<circle cx="94" cy="86" r="1.8" fill="#222"/><circle cx="106" cy="86" r="1.8" fill="#222"/>'
    + `<path d="M96 97q4 3 8 0" stroke="#a0413a" stroke-width="1.8" fill="none"/>${beard}`;
}

function bust(rank, suit, robe) {
  // The upper half (the lower one is the same, turned): shoulders, collar, head, headwear.
  const sash = rank === "K" ? `<path d="M70 138 128 104" stroke="${GOLD}" stroke-width="6"/>`
    : rank === "Q" ? `<path d="M86 104q14 14 28 0" stroke="${GOLD}" stroke-width="4" fill="none"/>`
      : `<path d="M100 106v32" stroke="${GOLD}" stroke-width="4"/>`;
  return `<path d="M56 140c0-22 14-36 44-36s44 14 44 36z" fill="${robe}" stroke="#222" stroke-width="1.5"/>`
    + sash
    + `<path d="M84 106q16 10 32 0l-4-6q-12 6-24 0z" fill="#fff" stroke="#222" stroke-width="1"/>`
    + face(rank) + headwear(rank, robe);
}

function court(rank, suit) {
  // A framed court card: a tinted panel with a double-headed figure, the suit in the middle.
  const red = isRed(`x${suit}`);
  const tint = red ? "#fbe7e3" : "#e6ebf5";
  const robe = red ? "#c62828" : "#22407a";
  const half = bust(rank, suit, robe);
  return `<defs><clipPath id="court-clip-${rank}${suit}"><rect x="46" y="40" width="108" height="200" rx="8"/></clipPath></defs>`
    + `<rect x="46" y="40" width="108" height="200" rx="8" fill="${tint}"/>`
    + `<g clip-path="url(#court-clip-${rank}${suit})"><g>${half}</g><g transform="rotate(180 100 140)">${half}</g></g>`
    + `<path d="M46 140h108" stroke="currentColor" stroke-width="1.5" opacity="0.5"/>`
    + `<circle cx="100" cy="140" r="15" fill="#fffdf6" stroke="currentColor" stroke-width="1.5"/>`
    + pip(suit, 100, 140, 20)
    + `<rect x="46" y="40" width="108" height="200" rx="8" fill="none" stroke="currentColor" stroke-width="3"/>`;
}

function joker() {
  const star = "M100 88l13 27 30 4-22 21 5 30-26-14-26 14 5-30-22-21 30-4z";
  return `<g class="joker-word"><text x="24" y="34" font-size="20" text-anchor="middle">J</text>
      <text x="24" y="54" font-size="20" text-anchor="middle">O</text>
      <text x="24" y="74" font-size="20" text-anchor="middle">K</text>
      <text x="24" y="94" font-size="20" text-anchor="middle">E</text>
      <text x="24" y="114" font-size="20" text-anchor="middle">R</text></g>
    <path d="${star}" fill="#6a1b9a"/><path d="${star}" fill="#f9a825" transform="translate(0 70) scale(1 0.55) translate(0 60)" opacity="0.9"/>
    <text x="100" y="232" font-size="26" text-anchor="middle" fill="#6a1b9a" class="court-letter">JOKER</text>`;
}

/** The face of a card as SVG text (decorative: the button around it carries the label). */
export function faceSVG(card) {
  const rank = card[0];
  const suit = card[1];
  let body;
  let colour;
  if (rank === "X") {
    body = joker();
    colour = "joker";
  } else {
    colour = isRed(card) ? "red" : "black";
    let centre;
    if (rank === "A") centre = pip(suit, 100, 140, suit === "d" ? 70 : 84);
    else if (rank === "J" || rank === "Q" || rank === "K") centre = court(rank, suit);
    else centre = PIPS[rank].map(([x, y]) => pip(suit, x, y, 40, y > 140)).join("");
    body = corner(rank, suit) + `<g transform="rotate(180 100 140)">${corner(rank, suit)}</g>` + centre;
  }
  return `<svg class="face ${colour}${suit ? ` suit-${suit}` : ""}" viewBox="0 0 ${W} ${H}" aria-hidden="true" focusable="false">
    <rect class="edge" x="2" y="2" width="${W - 4}" height="${H - 4}" rx="16" fill="url(#face-sheen)"/>
    ${body}</svg>`;
}

/** The back of a card. */
export function backSVG() {
  return `<svg class="back-face" viewBox="0 0 ${W} ${H}" aria-hidden="true" focusable="false">
    <rect x="2" y="2" width="${W - 4}" height="${H - 4}" rx="16" fill="#fdfdfb" stroke="#b9b9b0" stroke-width="2"/>
    <rect x="14" y="14" width="${W - 28}" height="${H - 28}" rx="10" fill="url(#back-lattice)"/>
    <rect x="14" y="14" width="${W - 28}" height="${H - 28}" rx="10" fill="none" stroke="#0f2f5c" stroke-width="3"/>
    <circle cx="100" cy="140" r="30" fill="#0f2f5c" stroke="#e9eef7" stroke-width="4"/>
    <text x="100" y="156" font-size="44" text-anchor="middle" fill="#e9eef7" class="court-letter">8</text></svg>`;
}

/** A suit symbol as a small SVG (for the named suit and the suit picker). */
export function suitSVG(suit) {
  return `<svg class="suit-icon ${isRed(`x${suit}`) ? "red" : "black"} suit-${suit}" viewBox="0 0 100 100"
    aria-hidden="true" focusable="false"><use href="#suit-${suit}"/></svg>`;
}

/** A card reduced to its index, large (rank over suit): readable where cards are small. */
export function indexSVG(card) {
  const rank = card[0];
  if (rank === "X") {
    return `<svg class="face joker index-card" viewBox="0 0 100 140" aria-hidden="true" focusable="false">
      <rect class="edge" x="2" y="2" width="96" height="136" rx="10" fill="url(#face-sheen)"/>
      <text x="50" y="62" font-size="30" text-anchor="middle">JO</text>
      <text x="50" y="100" font-size="30" text-anchor="middle">KER</text></svg>`;
  }
  const label = rankLabel(rank);
  const size = label.length > 1 ? 50 : 60;
  const spacing = label.length > 1 ? ' letter-spacing="-4"' : "";
  return `<svg class="face ${isRed(card) ? "red" : "black"} suit-${card[1]} index-card" viewBox="0 0 100 140" aria-hidden="true" focusable="false">
    <rect class="edge" x="2" y="2" width="96" height="136" rx="10" fill="url(#face-sheen)"/>
    <text x="50" y="62" font-size="${size}"${spacing} text-anchor="middle">${label}</text>
    ${pip(card[1], 50, 98, 44)}</svg>`;
}
