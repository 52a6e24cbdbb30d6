// Words the pages put around server codes: for every error code of docs/protocol.md, the
// sentence a person reads (what happened and what to do) instead of the raw code.

import { cardName } from "./cards.js";
import { format, gettext } from "./i18n.js";

// Sentences for the `code` of an `error` frame (docs/protocol.md: match socket,
// services behind the pages, chat socket, reports and blocks).
/** The sentences, in the page's language. @returns {Record<string, string>} */
export const errorSentences = () => ({
  bad_json: gettext("Your browser sent something the server could not read, so nothing changed. Reload the page if it happens again."),
  bad_message: gettext("Your browser sent something the server could not read, so nothing changed. Reload the page if it happens again."),
  unknown_type: gettext("Your browser asked for something the server does not know, so nothing changed. Reload the page to get the latest version of the table."),
  frame_too_large: gettext("That was too long to send, so nothing changed. Send something shorter."),
  rate_limited: gettext("Too many clicks at once: the last one was ignored. Wait a second, then try again."),
  malformed_action: gettext("The table sent a move the server could not read, so nothing changed. Reload the page and play the move again."),
  illegal_action: gettext("The rules do not allow that move. The line above the piles says what you can do now."),
  not_your_turn: gettext("It is your opponent's turn. Wait for their move: the table tells you when it is yours."),
  not_a_player: gettext("You are watching this match: only its two players can play or chat here."),
  stale_version: gettext("The table had moved on: it now shows the latest position. Play your move again if it is still your turn."),
  match_over: gettext("This match is over, so nothing can change it. Ask for a rematch or start a new match from the lobby."),
  match_not_started: gettext("The match has not started yet: it begins as soon as your opponent joins."),
  match_not_over: gettext("A rematch can be asked for once the match is over. Play on!"),
  not_found: gettext("This match does not exist. Go back to the lobby to start a new one."),
  server_error: gettext("Something went wrong on the server and nothing was changed. Try again in a moment; reload the page if it keeps happening."),
  overloaded: gettext("The site is very busy right now and nothing was changed. Wait a few seconds, then play your move again."),
  invalid_settings: gettext("Those match settings are not valid. Check the settings and try again."),
  guest_not_allowed: gettext("Guests can play the computer. Sign up (it is free) to play other people."),
  invite_not_found: gettext("This invitation is no longer open. Ask your friend for a new link, or start a match from the lobby."),
  hand_not_over: gettext("This hand is still being played: its replay opens once it is over."),
  muted: gettext("You are muted, so your message was not sent. The notice says until when and why."),
  chat_too_long: gettext("Your message is too long. Shorten it and send it again."),
  chat_empty: gettext("Your message is empty. Type something, then send it."),
  chat_not_allowed: gettext("Guests can read the chat but not write. Sign up (it is free) to chat."),
  account_closed: gettext("Your account was closed, so you were signed out of this table."),
  bad_reason: gettext("Choose a reason for the report, then send it again."),
  own_message: gettext("You cannot report your own message."),
  already_reported: gettext("You have already reported this message: a moderator will read it."),
  no_such_message: gettext("That message is gone (a moderator may have hidden it)."),
  no_such_player: gettext("There is no player with that name."),
  block_self: gettext("You cannot block yourself."),
  invite_closed: gettext("Someone has already accepted this invitation, so it can no longer be cancelled."),
  rated_play_banned: gettext("You are banned from rated play for a while for leaving rated matches. You can still play the computer."),
  bot_not_allowed: gettext("BOT accounts play through the bot API: challenges and the computer, not invitations or quick matches."),
  offline_match_refused: gettext("This offline match could not be saved: it does not replay by the rules."),
});

// Refusals whose server message holds what the player needs (how long a ban lasts,
// which move of an upload did not replay): shown as sent.
const SPECIFIC = new Set(["rated_play_banned", "offline_match_refused"]);

const CARD_TEXT = /\b([A2-9TJQK][CDHS])\b/g;

/** The rule an engine refusal names, readable: "you do not hold TD" ->
 * "you do not hold the ten of diamonds." */
function ruleText(message) {
  const text = String(message).trim().replace(CARD_TEXT, (card) => format(gettext("the %(card)s"), { card: cardName(card) }));
  return !text || /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The rules an illegal move breaks, by the reason the engine names (games/engine/errors.py
 * REASONS; the server's sentences are games/refusals.py), in the page's language. A
 * malformed action gets the one general sentence of `malformed_action`.
 * @returns {Record<string, string>} */
const ruleSentences = () => ({
  no_hand_in_play: gettext("no hand is in play: the match is over or waits for a deal"),
  match_over: gettext("the match is over: nobody can forfeit it"),
  hand_over: gettext("the hand is over: no more actions"),
  not_your_turn: gettext("it is not your turn"),
  first_turn_take_or_pass: gettext("on the first turn you may only take the upcard or pass"),
  draw_first: gettext("draw a card first: from the stock or the discard pile"),
  pass_first_turn_only: gettext("you can pass only on the first turn, when the upcard is offered"),
  already_drawn: gettext("you have already drawn this turn: discard a card or knock"),
  no_stock_on_first_turn: gettext("you cannot draw from the stock on the first turn: take the upcard or pass"),
  discard_pile_empty: gettext("the discard pile is empty"),
  not_held: gettext("you do not hold %(card)s"),
  discard_just_taken: gettext("you cannot discard the card you just took from the discard pile"),
  straight_gin_only: gettext("Straight Gin has no knocking: you may only go gin (0 deadwood), you would have %(points)s"),
  gin_only: gettext("the knock limit of this hand is 0: you may only go gin, you would have %(points)s"),
  knock_limit: gettext("you may knock only with %(limit)s or less deadwood, you would have %(points)s"),
  big_gin_not_allowed: gettext("Big Gin is not allowed in this match"),
  big_gin_needs_melds: gettext("Big Gin needs all 11 cards in melds"),
});

/** What to show a person for a refusal of the browser's engine (offline/engine.js
 * ActionError: `kind`, `reason`, `details`), as errorSentence does for the server's: an
 * illegal move says which rule, its card named in words.
 * @param {{ kind?: string, reason?: string, details?: Record<string, unknown> }} error */
export function engineRefusal(error) {
  const sentence = error.kind === "illegal" ? ruleSentences()[error.reason ?? ""] : undefined;
  if (!sentence) return errorSentence(error.kind === "illegal" ? "illegal_action" : "malformed_action", "");
  return errorSentence("illegal_action", format(sentence, error.details ?? {}));
}

/** What to show a person for an `error` frame. An illegal move also says which rule. */
export function errorSentence(code, message) {
  const rule = code === "illegal_action" && message ? ruleText(message) : "";
  if (rule) return format(gettext("That move is not allowed: %(rule)s The line above the piles says what you can do now."), { rule });
  if (SPECIFIC.has(code) && message) return message;
  const sentences = errorSentences();
  return sentences[code] ?? sentences.server_error;
}
