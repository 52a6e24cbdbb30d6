// @ts-check
// The types of the frames of docs/protocol.md, as JSDoc typedefs for TypeScript's
// checker (tests/test_lint_js.py). Generated from games/wire.py by `python manage.py wire_schemas`
// (the same models as the JSON Schemas of docs/schemas/): do not edit. No page
// loads this module; a checked one reads a type as import("./wire.js").StateFrame.

/**
 * @typedef {StateFrame | EventFrame | PresenceFrame | DeadlineFrame | MatchErrorFrame | MatchChatHistoryFrame | MatchChatFrame | MatchChatHiddenFrame | MatchChatNoticeFrame | MatchUnreadFrame | MatchNotificationFrame} MatchSocketFrame
 */

/**
 * @typedef {ActionMessage | ResignMessage | RematchMessage | SyncMessage | ChatPost} MatchClientFrame
 */

/**
 * @typedef {ChatHistoryFrame | ChatFrame | ChatHiddenFrame | ChatNoticeFrame | ErrorFrame | ChallengeFrame | ChallengeClosedFrame | UnreadFrame | NotificationFrame} ChatSocketFrame
 */

/**
 * @typedef {ChatPost | PingMessage} ChatClientFrame
 */

/**
 * @typedef {StandingsFrame | MatchReadyFrame | PongFrame | ChatHistoryFrame | ChatFrame | ChatHiddenFrame | ChatNoticeFrame | ErrorFrame | UnreadFrame | NotificationFrame} TournamentSocketFrame
 */

/**
 * @typedef {ChatPost | PingMessage} TournamentClientFrame
 */

/**
 * an engine action (docs/protocol.md, Actions)
 *
 * @typedef {PassAction | DrawAction | DiscardAction | KnockAction | BigGinAction} Action
 */

/**
 * Play `action` at `version`. The server reads the frame's form first
 * (`bad_message`), then, in docs/protocol.md's order, the seat, the version and the
 * turn, and only then the action itself (`malformed_action`, `illegal_action`).
 *
 * @typedef {object} ActionMessage
 * @property {"action"} type
 * @property {number} version
 * @property {Action} action
 */

/**
 * @typedef {object} BigGinAction
 * @property {"big_gin"} type
 */

/**
 * @typedef {object} Bonuses
 * @property {number} game
 * @property {number} line
 * @property {number} shutout
 */

/**
 * @typedef {object} ChallengeClosedFrame
 * @property {"challenge_closed"} type
 * @property {number} id
 */

/**
 * @typedef {object} ChallengeFrame
 * @property {"challenge"} type
 * @property {LobbyChallenge} challenge
 */

/**
 * @typedef {object} ChatFrame
 * @property {"chat"} type
 * @property {ChatLine} message
 */

/**
 * @typedef {object} ChatHiddenFrame
 * @property {"chat_hidden"} type
 * @property {number} id
 */

/**
 * @typedef {object} ChatHistoryFrame
 * @property {"chat_history"} type
 * @property {Array<ChatLine>} messages
 */

/**
 * One chat message (games/chat/selectors.py `message_to_dict`): render `author`
 * and `text` as text, never as HTML.
 *
 * @typedef {object} ChatLine
 * @property {number} id
 * @property {string} author
 * @property {number | null} seat
 * @property {string} text
 * @property {string} created_at ISO 8601, UTC, e.g. 2026-01-02T10:00:30.500Z
 */

/**
 * @typedef {object} ChatNoticeFrame
 * @property {"chat_notice"} type
 * @property {"warning" | "muted" | "unmuted"} code
 * @property {string} text
 */

/**
 * A chat line (the match, lobby and tournament sockets).
 *
 * @typedef {object} ChatPost
 * @property {"chat"} type
 * @property {string} text
 */

/**
 * @typedef {object} Clock
 * @property {number} turn_seconds
 * @property {string} deadline ISO 8601, UTC, e.g. 2026-01-02T10:00:30.500Z
 * @property {number} remaining_ms
 */

/**
 * A correspondence match's clock: days per whole turn, the current turn's deadline.
 *
 * @typedef {object} Correspondence
 * @property {number} days_per_move
 * @property {string | null} deadline
 */

/**
 * A correspondence turn's deadline moved with no move (a vacation), at the match's
 * current version, which it does not raise.
 *
 * @typedef {object} DeadlineFrame
 * @property {"deadline"} type
 * @property {number} version the match version
 * @property {Correspondence} correspondence
 */

/**
 * @typedef {object} DiscardAction
 * @property {"discard"} type
 * @property {string} card a card as a client may write it (either case): "TD", "td"
 */

/**
 * @typedef {object} DiscardDrawEvent
 * @property {number} seat a seat: 0 or 1
 * @property {"draw"} type
 * @property {"discard"} source
 * @property {string} card a card as the server writes it: "TD"
 * @property {true} [timeout]
 */

/**
 * @typedef {object} DiscardEvent
 * @property {number} seat a seat: 0 or 1
 * @property {"discard"} type
 * @property {string} card a card as the server writes it: "TD"
 * @property {true} [timeout]
 */

/**
 * @typedef {object} DrawAction
 * @property {"draw"} type
 * @property {"stock" | "discard"} source
 */

/**
 * A refusal on the lobby and tournament sockets (no match version).
 *
 * @typedef {object} ErrorFrame
 * @property {"error"} type
 * @property {string} code
 * @property {string} message
 */

/**
 * @typedef {object} EventClock
 * @property {string} deadline ISO 8601, UTC, e.g. 2026-01-02T10:00:30.500Z
 * @property {number} remaining_ms
 */

/**
 * What an ordinary move changed, for one audience.
 *
 * @typedef {object} EventFrame
 * @property {"event"} type
 * @property {number} version the match version
 * @property {Array<MoveEvent>} events
 * @property {Turn} turn
 * @property {EventClock | null} [clock]
 * @property {string} [move_deadline] ISO 8601, UTC, e.g. 2026-01-02T10:00:30.500Z
 * @property {MoverNews} [you]
 */

/**
 * A finished hand with its seed revealed (docs/dealing.md).
 *
 * @typedef {object} FinishedHand
 * @property {number} number
 * @property {number} dealer a seat: 0 or 1
 * @property {string} commitment
 * @property {string} seed
 * @property {HandResult | null} result
 */

/**
 * @typedef {object} HandOverEvent
 * @property {"hand_over"} type
 * @property {HandResult} result
 */

/**
 * A hand's showdown (`HandResult.to_dict()`): both hands revealed.
 *
 * @typedef {object} HandResult
 * @property {"knock" | "gin" | "big_gin" | "undercut" | "draw"} kind
 * @property {number | null} winner
 * @property {number} points
 * @property {number | null} knocker
 * @property {[number, number]} deadwood
 * @property {[Array<Array<string>>, Array<Array<string>>]} melds
 * @property {[Array<string>, Array<string>]} deadwood_cards
 * @property {[Array<string>, Array<string>]} hands
 * @property {Array<string>} layoffs
 * @property {Array<Array<string>>} layoffs_onto
 * @property {string | null} knock_card
 * @property {number | null} knock_limit
 */

/**
 * @typedef {MoveEvent | KnockEvent | HandOverEvent} HistoryEvent
 */

/**
 * `card` left out (or null): the engine knocks with the best card.
 *
 * @typedef {object} KnockAction
 * @property {"knock"} type
 * @property {string | null} [card]
 */

/**
 * A knock, gin or Big Gin (the card discarded face down is in the result).
 *
 * @typedef {object} KnockEvent
 * @property {number} seat a seat: 0 or 1
 * @property {"knock" | "gin" | "big_gin"} type
 */

/**
 * a legal action as the view lists it
 *
 * @typedef {PassAction | DrawAction | LegalDiscard | LegalKnock | BigGinAction} LegalAction
 */

/**
 * @typedef {object} LegalDiscard
 * @property {"discard"} type
 * @property {string} card a card as the server writes it: "TD"
 */

/**
 * @typedef {object} LegalKnock
 * @property {"knock"} type
 * @property {string} card a card as the server writes it: "TD"
 */

/**
 * @typedef {object} LiveMatch
 * @property {number} match_id
 * @property {number | null} round
 * @property {[string | null, string | null]} players
 * @property {string} url
 */

/**
 * A challenge to the user (games/api/events.py `lobby_challenge_json`).
 *
 * @typedef {object} LobbyChallenge
 * @property {number} id
 * @property {string} from the challenger's name
 * @property {"default" | "time_freedom" | "straight" | "oklahoma"} variant
 * @property {number} target
 * @property {boolean} rated
 */

/**
 * @typedef {object} MatchChatFrame
 * @property {"chat"} type
 * @property {ChatLine} message
 * @property {number} version the match version
 */

/**
 * @typedef {object} MatchChatHiddenFrame
 * @property {"chat_hidden"} type
 * @property {number} id
 * @property {number} version the match version
 */

/**
 * @typedef {object} MatchChatHistoryFrame
 * @property {"chat_history"} type
 * @property {Array<ChatLine>} messages
 * @property {number} version the match version
 */

/**
 * @typedef {object} MatchChatNoticeFrame
 * @property {"chat_notice"} type
 * @property {"warning" | "muted" | "unmuted"} code
 * @property {string} text
 * @property {number} version the match version
 */

/**
 * A refusal on the match socket (with the version; codes in docs/protocol.md).
 *
 * @typedef {object} MatchErrorFrame
 * @property {"error"} type
 * @property {number} version the match version
 * @property {string} code
 * @property {string} message
 */

/**
 * @typedef {object} MatchNotificationFrame
 * @property {"notification"} type
 * @property {Notice} notification
 * @property {number} unread
 * @property {number} version the match version
 */

/**
 * @typedef {object} MatchReadyFrame
 * @property {"match_ready"} type
 * @property {number} match_id
 * @property {string} url
 */

/**
 * The match's score (`score_match(...).to_dict()`).
 *
 * @typedef {object} MatchScore
 * @property {boolean} over
 * @property {[number, number]} hand_points
 * @property {[Bonuses, Bonuses]} bonuses
 * @property {[number, number]} totals
 * @property {number | null} winner
 * @property {[number, number]} hands_won
 * @property {number} hands_drawn
 * @property {number | null} reached_target
 * @property {number | null} forfeit
 * @property {Array<[number, number]>} per_hand
 */

/**
 * The `match` part of a `state`, the same for every audience.
 *
 * @typedef {object} MatchTable
 * @property {number} id
 * @property {"waiting" | "active" | "finished" | "cancelled"} status
 * @property {"computer" | "friend" | "quick"} kind
 * @property {"default" | "time_freedom" | "straight" | "oklahoma"} variant
 * @property {boolean} rated
 * @property {Rules} rules
 * @property {number} hand_number
 * @property {Array<SeatInfo>} seats
 * @property {string | null} commitment
 * @property {Clock | null} clock
 * @property {Correspondence | null} correspondence
 * @property {number | null} current_seat
 * @property {number | null} winner
 * @property {("target" | "resign" | "abandon" | "suspended" | "cancelled" | "expired") | null} end_reason
 * @property {boolean} aborted
 * @property {MatchScore | null} final
 * @property {Array<FinishedHand>} hands
 * @property {Rematch} rematch
 */

/**
 * @typedef {object} MatchUnreadFrame
 * @property {"unread"} type
 * @property {number} unread
 * @property {number} version the match version
 */

/**
 * @typedef {PassEvent | StockDrawEvent | DiscardDrawEvent | DiscardEvent} MoveEvent
 */

/**
 * What only the mover may see of their own move.
 *
 * @typedef {object} MoverNews
 * @property {Array<Array<string>>} melds
 * @property {number} deadwood
 * @property {string} [drew] a card as the server writes it: "TD"
 * @property {Array<string>} [knock]
 */

/**
 * A notification as the bell shows it: its text in the page's language.
 *
 * @typedef {object} Notice
 * @property {number} id
 * @property {"challenge" | "follow" | "friend" | "tournament" | "turn" | "moderation"} kind
 * @property {string} text
 * @property {string} url
 * @property {string} created_at ISO 8601, UTC, e.g. 2026-01-02T10:00:30.500Z
 */

/**
 * @typedef {object} NotificationFrame
 * @property {"notification"} type
 * @property {Notice} notification
 * @property {number} unread
 */

/**
 * @typedef {object} PairingLine
 * @property {string} seat0
 * @property {string | null} seat1
 * @property {number | null} winner
 * @property {boolean} finished
 * @property {string | null} url
 */

/**
 * @typedef {object} PassAction
 * @property {"pass"} type
 */

/**
 * @typedef {object} PassEvent
 * @property {number} seat a seat: 0 or 1
 * @property {"pass"} type
 * @property {true} [timeout]
 */

/**
 * @typedef {object} PingMessage
 * @property {"ping"} type
 */

/**
 * @typedef {object} PongFrame
 * @property {"pong"} type
 */

/**
 * @typedef {object} PresenceFrame
 * @property {"presence"} type
 * @property {number} version the match version
 * @property {Array<SeatPresence>} seats
 */

/**
 * @typedef {object} Rematch
 * @property {number | null} offered_by
 * @property {number | null} match_id
 */

/**
 * @typedef {object} RematchMessage
 * @property {"rematch"} type
 */

/**
 * @typedef {object} ResignMessage
 * @property {"resign"} type
 * @property {number} version
 */

/**
 * The rule set (`RuleSet.to_dict()`, docs/rules.md).
 *
 * @typedef {object} Rules
 * @property {number} knock_limit
 * @property {number} target_score
 * @property {number} gin_bonus
 * @property {number} big_gin_bonus
 * @property {number} undercut_bonus
 * @property {number} game_bonus
 * @property {number} line_bonus
 * @property {boolean} shutout
 * @property {boolean} big_gin_allowed
 * @property {boolean} oklahoma
 * @property {boolean} oklahoma_ace_gin_only
 * @property {boolean} straight
 * @property {number | null} turn_seconds
 */

/**
 * @typedef {object} SeatInfo
 * @property {number} seat a seat: 0 or 1
 * @property {string} name
 * @property {string | null} bot_level
 * @property {boolean} connected
 * @property {number} score
 */

/**
 * @typedef {object} SeatPresence
 * @property {number} seat a seat: 0 or 1
 * @property {boolean} connected
 */

/**
 * @typedef {object} StandingRow
 * @property {number} rank
 * @property {string} player
 * @property {number} points
 * @property {number} wins
 * @property {number} losses
 * @property {number} byes
 * @property {Array<number>} tiebreaks
 * @property {number} streak
 * @property {boolean} fire
 * @property {"active" | "paused" | "withdrawn" | "removed"} status
 */

/**
 * @typedef {object} StandingsFrame
 * @property {"standings"} type
 * @property {number} version
 * @property {"scheduled" | "live" | "finished" | "cancelled"} status
 * @property {number | null} round
 * @property {string | null} ends_at
 * @property {number} players
 * @property {Array<StandingRow>} rows
 * @property {Array<LiveMatch>} live
 * @property {Array<PairingLine>} pairings
 */

/**
 * The whole table for the recipient.
 *
 * @typedef {object} StateFrame
 * @property {"state"} type
 * @property {number} version the match version
 * @property {number | null} you
 * @property {MatchTable} match
 * @property {View | null} view
 */

/**
 * A draw from the stock names no card.
 *
 * @typedef {object} StockDrawEvent
 * @property {number} seat a seat: 0 or 1
 * @property {"draw"} type
 * @property {"stock"} source
 * @property {true} [timeout]
 */

/**
 * @typedef {object} SyncMessage
 * @property {"sync"} type
 */

/**
 * @typedef {object} Turn
 * @property {number | null} player
 * @property {"first_turn" | "draw" | "discard" | "over"} phase
 */

/**
 * @typedef {object} UnreadFrame
 * @property {"unread"} type
 * @property {number} unread
 */

/**
 * What one audience sees of the hand on the table (the engine's `player_view`
 * or, with `seat` null, `spectator_view`): never the opponent's concealed cards,
 * the stock or the seed.
 *
 * @typedef {object} View
 * @property {number | null} seat
 * @property {Array<string>} hand
 * @property {Array<Array<string>>} melds
 * @property {Array<string>} deadwood_cards
 * @property {number | null} deadwood
 * @property {number | null} opponent_card_count
 * @property {Array<string>} opponent_known_cards
 * @property {string | null} taken_from_discard
 * @property {Array<LegalAction>} legal_actions
 * @property {Array<string>} discard_pile
 * @property {number} stock_count
 * @property {number | null} current_player
 * @property {"first_turn" | "draw" | "discard" | "over"} phase
 * @property {number} dealer a seat: 0 or 1
 * @property {number} knock_limit
 * @property {string} upcard a card as the server writes it: "TD"
 * @property {[number, number]} card_counts
 * @property {[Array<string>, Array<string>]} known_cards
 * @property {Rules} rules
 * @property {Array<HistoryEvent>} history
 * @property {HandResult | null} result
 */

export {};
