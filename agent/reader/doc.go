// Package reader reads a question about a temporal graph into an intent
// with typed slots, and writes the plan that answers it. It needs no
// model.
//
// Reading is in three passes over the question's tokens:
//
//  1. Slots. Typed values are taken out first, wherever they stand:
//     node uids (a token the task supplied or the store knows, "n42's"
//     included) and names ("quoted", or after "named"/"called"), time
//     expressions, durations, a belief time, a count ("top 5") and burst
//     parameters ("z ≥ 3", "10 buckets of history").
//  2. Words. What is left is read as phrases, then single words, through
//     a lexicon of concepts (reach, first, send, neighbour, burst, …).
//     A word is looked up as written, then as the word an abbreviation
//     stands for ("msgs", "accnts", "nbrs"), then by its Snowball
//     (Porter 2) stem ("correspondents", "emailing"), then as the base of an
//     irregular form the stemmer cannot relate ("went", "told": a table
//     taken from WordNet's exception lists, inflect.go); a stem two
//     concepts share is read only as written. A word of six letters or
//     more with two adjacent letters swapped ("recieved") is read as the
//     one lexicon word it misspells, and the reading says so. Agent and
//     patient nouns of a sending verb ("rater", "ratee") name senders and
//     recipients; the store's relation types ("TRUST", "MSG") are event
//     words; a hyphenated word whose joined spelling is a word is one
//     ("e-mail"). Synonyms, single words and phrases ("hand out", "turn
//     up", "kick off"), come from a small reviewed table derived from
//     WordNet synsets of each concept's head words (synonyms.go says
//     how).
//
// Which words may be ignored is decided by one principle: a word may be
// ignored only when it stands where no reading of it can change which
// intent, slot, direction, window or belief time the question has, that
// is, where it cannot restrict what is counted or found. A word restricts
// when it modifies the counted noun ("opened e-mails", "external
// replies"), stands in a clause on it ("the ones n7 opened"), is the verb
// relating the counted thing to a node ("messages mentioning n5"), or
// belongs to a closed class that transforms a request. Words are in three
// classes:
//
//   - Meaning-changing closed classes, refused wherever no intent honours
//     them: negation and exclusion (not, except, excluding, without),
//     comparison and thresholds (more, fewer, at least, greater),
//     aggregates (average, median, sum), conditions (if, only, unless),
//     ordinals (second, third), calendar cycles outside a cycle question
//     (Mondays, Mon, weekends), future time (will, forecast, next) and
//     the first belief ("originally", "initially", "the original data":
//     no slot reads when the store first held a record).
//     Direction and role words (from, to, by, sent, received) are read by
//     the intents, never ignored. A node that is the subject of a passive
//     sending verb ("was n5 sent", "n5 has been rated") receives, and the
//     reading says so (refused when other words make it the sender); a
//     ranking whose ranked nodes are a passive's subject ("who got rated
//     the most", "was trusted by the most", "the most-rated") is refused. A
//     reach question's node written where paths end ("reached n5") is
//     refused, and so is "more than N hops" (only "no more than" and "at
//     most" bound a path).
//   - Words that cannot change intent, ignored and listed in the reading.
//     By class: greetings and thanks, politeness formulae ("could you",
//     "if I may ask"), hedges and intensifiers (roughly, exactly,
//     specifically, "appears to", "I gather"), speech-act verbs (tell,
//     show, pull up), nouns pointing at the data as a whole (whole,
//     entire, things, archive, institution), pronouns and free relatives
//     (whoever; a personal pronoun only after the one node it names: with
//     two nodes written, or before the node, it is refused; "to himself"
//     and a node written again right after "to" or "from" name its
//     messages to itself, a restriction, and "n5 itself included" puts
//     it among nodes that leave it out: both are refused), mentions
//     ("@here"), "UTC" beside a time (the default zone restated),
//     ", meaning", "that is to say" and "I mean" before a restatement, "working" before "week" when the window written is
//     one Monday to Friday,
//     epistemic hedges ("perhaps", "as far as the store knows"), "today"
//     after a verb of the store's state ("as the archive stands today":
//     the latest belief), and "single" right before the period a
//     busiest-period question asks for ("which single day"). By position: words
//     that only describe a named node, since a uid names one node and a
//     modifier of it restricts nothing (describe.go: "the payroll office
//     n41", "suspended user n77", "the counsel (node n302)", "n19
//     (the help-desk inbox)", but not "unanswered n5 messages", where the
//     node modifies a noun); a parenthesis naming a written time by a
//     period noun ("on D (the audit day)"), right after it or closing the
//     question when the question's times span exactly that period ("…?
//     (the exam week)" after seven days); a number or noun that restates a size the
//     question fixes (restate.go: "the three corners" of a triangle, "the
//     two parties" of a ping-pong exchange, "between the two" of two
//     nodes, "how many hours" in hourly buckets; never "two hops"); an
//     upper bound beside the δ of a motif question, which is a bound
//     already ("an hour or less", "one hour maximum"); and a phrase that
//     points back at what the question wrote ("at that exact second",
//     "only that direction"), but only when the question writes it: with
//     no instant or no two nodes it points elsewhere and is refused.
//     A period word that no slot read, right before a relation to a time
//     ("the week after D", "the week beginning D", "the week to D"),
//     bounds the window, so it is refused rather than let the window run
//     on; so is "around" before a time (near it: no window).
//   - Everything else is a content word: read through the lexicon, or,
//     when unknown, a refusal, since an unread content word may restrict
//     what is counted. A number no slot explains is a refusal too. The
//     reader never answers a question it did not fully read.
//
// Some words are read by where they stand (placed.go), each by a
// principle of its own:
//
//   - Partners and neighbours. "in contact with", "in correspondence
//     with" and "exchange mail with" name whom a node interacted with in
//     either direction, as "in touch with" does; at an instant they are
//     its neighbours then, over a window its partners. "with how many"
//     asks how many of them, as "with whom" asks who. "to leave a rating
//     for n7" is to send it to n7. A clause on an indefinite pronoun
//     ("anyone who wrote to it or was written to by it") is read only
//     when it names both directions, which is what a partner is; one
//     direction restricts who is counted and is refused. A closing
//     "Only the people it sent to." restates the direction of a question
//     that asks whom a node sent to, and is refused after any other.
//     "whose" opening a clause asks which node; after a noun it is a
//     relative pronoun and refused. A count of nodes counts each once,
//     so "how many people did n5 write to" counts its distinct partners
//     in that direction; a sending and a receiving verb joined by "and"
//     ("sent to and received from") ask for the nodes in both directions,
//     which no intent computes, and are refused ("or" is either).
//   - Direction without a verb. A node's count of events that writes no
//     sending or receiving verb takes its direction from the
//     preposition before the node: "to" (into, towards) counts what it
//     received, "from" (by) what it sent, "to or from" both; "for" names
//     no direction ("ratings logged for n5": received, or all of n5's?)
//     and is refused, as is a preposition before a possessive ("from
//     n5's contacts" governs the noun n5 owns). "give" and "get" right
//     after the node are its own act of sending and receiving; in a
//     count between two nodes "give" after the first is its sending, and
//     "get" after either, or "give" after the second, is refused, as are
//     two nodes joined as one subject ("did n5 and n7 send", "sent by n5
//     or n7": each one's own events?) unless "between" or a verb of
//     exchange names the pair. "How many" asked twice is two questions,
//     and is refused.
//   - Ranks and exclusions. An ordinal right before a superlative ("the
//     second-busiest day", "the third most active sender") or "the
//     runner-up" asks for the row at that rank of a busiest-period or
//     top-nodes ranking (ties ordered as at the first rank); with a
//     count of rows beside it, a second rank, a superlative it does not
//     rank ("the most, and the second most": two questions), or no
//     superlative it is refused, and "not the busiest" beside it
//     restates it. A node set aside ("apart from", "aside from", "other
//     than", "except (for)", "excluding", "besides", "not counting",
//     "leaving out") is dropped from the ranked nodes before the ranking
//     is taken, so the k answered are the k best of the others; it is
//     read only opening the question or set off by commas right after
//     the words that ask who ("Who, other than n5, ..."). Elsewhere
//     ("messages from anyone other than n5", ", excluding n5" at the
//     end) it may set aside the node's events, not the node, and is
//     refused, as is a node set aside and written again (then it has
//     another role too), and "apart from" or "aside from" before anything
//     but a node ("apart from those from n7": events, not a node).
//   - Thresholds. A lower bound before an event noun ("more than five
//     messages", "at least 3 ratings", "10 or more e-mails") in a "how
//     many" question about nodes keeps the nodes whose count of events
//     in the window passes it ("which users sent more than five
//     messages" lists them): "more than N" (and "over N" right before
//     the event noun) is strictly more, "at least N" and "N or more"
//     include N. The counted nodes are the senders or the recipients as
//     the verb says (the subject of a passive "were sent" receives; with
//     neither it is refused), and with a node named, the count is of
//     events to or from that node, as "to" or "from" before it says (with
//     neither, "which of n5's contacts sent more than …", the verb may be
//     the counted nodes' own, and it is refused). A bound written again must agree
//     ("strictly more than five", "exactly five does not count" after
//     "more than five"); upper bounds ("fewer than", "at most": a node
//     with no events has no row) and a period word beside the bound ("a
//     day", "each week": per period?) are refused.
//   - Averages. "The average (mean) number of messages per day (hour,
//     week)" over a window is the mean of the window's per-period
//     counts, every period counted and a quiet one as zero, which is
//     the total over the number of periods; "(quiet days included)" and
//     "counting every one of the 30 days" restate it (the number must be
//     the window's). The window must be whole periods, at most one page
//     of them; "per active day" (some periods only), "per month" (no
//     fixed width), two periods, and a node noun beside the average
//     ("per user per day", "each account": over nodes too?) are refused.
//   - Degree counts every incident record, so "duplicates included",
//     "rather than distinct people" and a remark that some were
//     "logged twice" restate it; anywhere else these words are refused
//     ("counted twice" too), and "duplicates excluded" (a negation)
//     is refused everywhere.
//   - New nodes. "came into existence" and "new arrivals" name new
//     nodes. A node is new when its first event of any kind falls in
//     the window: "had their first activity" reads as new nodes; "sent
//     their first message" does not (a node may receive before it sends).
//     ", the opening month of the log" after a month restates it when
//     that month holds the store's first instant; after any other period
//     it is refused.
//   - Motifs. A loop, circle or ring sized three where it stands ("a
//     circle of three users", "three-node loops", "a->b->c->a loops") is
//     a cyclic triangle, and "round" it only says the messages follow it;
//     with no size it is refused. "within D of their first message"
//     restates δ, which is measured from an instance's first event;
//     "within the hour" is within one hour. In a motif question "opening"
//     is first and "opens" starts; "considering only the nodes n5 can
//     reach" names the set a reach-filtered motif question restricts to
//     already; "with n5 as one of the corners" (or "as a party") is
//     "involving n5". "Among n5's partners" (correspondents,
//     counterparts) puts every corner of an instance among the nodes n5
//     exchanged events with in the window, either direction, n5 itself
//     left out; "all three of whose corners were reachable from n5" or
//     "... exchanged messages with n5" says the same of the reach set or
//     of the partners, and is read only when its clause names one of the
//     two. Partners taking part in instances ("did n5's partners take
//     part in") are not all the corners, and are refused, as is a
//     sending or receiving verb beside the partners (whose direction?).
//     A node asked for as the one that closes, completes or ends
//     an instance is refused: only the sender of its first edge is named.
//   - Records. "How often" a record was corrected, over its whole
//     history, asks how many times; with "per" or a period word ("per
//     month") it asks a rate, and "how often" of events is either: both
//     are refused. "and if so how many" after a yes/no question is
//     answered by the count, and ", if any," or ", if at all," in a
//     "how many" question restricts nothing (none is 0; beside a list
//     they are refused); "across all of its valid time" restates that
//     versions are counted over every valid time; "after the
//     corrections", with no time, is the latest belief. A parenthesis or
//     closing clause that only places a written belief time among the
//     correction batches ("(just after the first batch)", ", exactly when
//     the second batch was written") describes a time the question
//     writes, and restricts nothing, as a description of a named node.
//
// Scenes. A declarative sentence before the question that places the
// question's node at an instant ("n5 posted a notice at 09:00 UTC on 3
// May 2004.") gives the instant the question points back at ("at that
// instant", "at each of those two instants", "between those two
// instants"; "since that moment" would be a window, and is not read so),
// and its other words, which
// only describe what the node did then, are ignored and listed (scene.go).
// It is refused when it names another node or the question names
// another, when it writes a period or a number of times other than the
// question points at, when a word could move or bound its time (a
// number, a unit, "after", "around", a negation), and when a plural
// pronoun in the question ("which of them") may point at what it
// describes rather than at its time (one right after a node noun of the
// question, "its neighbours …, which ones", points at that noun). After
// a scene of two instants, "at the first" and "at the second" are those
// instants in the order written, and the one after a negation ("that it
// did not have at the first") is the base of the change asked for; with
// no negation, or both negated, they are refused. Partners written at
// those two instants ("its contacts at each of those two instants") are
// the neighbours then; elsewhere partners are not neighbours.
//
// Event words that name one kind of event ("messages", "ratings", a
// relation type) mean the store's only relation; on a store with several
// they are refused as ambiguous, while "edges", "events" and
// "interactions" count every relation.
//  3. Intent. An intent fits when the question holds every concept it
//     needs and none it cannot honour; of the fitting intents, those whose
//     slots the question fills are kept. Exactly one must remain; none or
//     several is a refusal that names what was missing or ambiguous and
//     suggests question forms filled with the question's own slots.
//
// Times (all UTC unless an offset is written): raw microseconds
// ("1083412800000000", "1083412800000000 µs"); RFC 3339 with or without an
// offset; ISO dates and date-times ("2004-05-03", "2004-05-03 12:00 UTC");
// "2004/05/03", and "03/05/2004" only when the day and month cannot be
// swapped, or when another slashed date of the same question settles its
// writer's order ("15/05/2004" is day first); "May 3, 2004", "May 3rd 2004", "3 May 2004", "the 3rd of May
// 2004"; a time of day before or after a date ("noon UTC on May 3, 2004",
// "May 3, 2004 at 15:30 UTC", "3pm", "3 p.m.", "midnight", "10:00+02:00"); months
// ("May 2004", "in June": a missing year is filled in when exactly one
// year of the store's extent fits, or inside parentheses after a period
// of one year, which it restates, or when the question writes one year
// only, in no belief time, and the store's extent has it; the reading
// says so); weeks ("the
// first week of June 2004" is June 1–7, "the last week of …" the last
// seven days, "the week of May 3, 2004" seven days from then, "2004-W23"
// and "week 23 of 2004" ISO weeks); quarters ("Q3 2004", "2004-Q3", "the
// third quarter of 2004"); years after a preposition ("in 2004") or a
// verb directing attention to them ("taking 2004 day by day", not
// "taking 2000 ms"). A date
// followed by "(microseconds)" is pinned to that exact instant, which must
// lie inside the written date.
//
// Dates also read: a weekday before its date ("Monday 5 January 1970",
// which must agree, and which settles a slashed date such as "Monday
// 11/05/1970"), ordinal words ("the fifth of January", "twenty-sixth"),
// half years ("H1 2012", "the first half of 1971"), "3/2013", "July
// '12" (the century in the store's extent), "all of 2013", a year
// standing alone ("2011: …"), "(UTC)" after a time, the fixed-date
// holidays ("New Year's Day 1970", "Christmas Day", "New Year's Eve"),
// and "only" right after a time ("on 1 May only"), which restates its
// window.
//
// Ranges: "from A to B", "between A and B", "A .. B" are [A, B), but
// with both ends whole months, quarters or years ("from January 1970 to
// June 1970", "between 2004 and 2005") "to" is refused: does it include
// B, as "January to June 1970" does? "A
// through B" and "A to B" with an inclusion marker after B ("inclusive",
// "(inclusive)", "both days included") end at the end of B's period, as
// does "until B" with one ("before B inclusive" is refused), and so
// does a lone "through B" (from the start of the store); "after D"
// starts where D ends ("the two weeks after D" too, with "the", "in the",
// "for", "within" or "over" before the length: "two weeks after D"
// alone may be the day that much later, and is refused; after an instant,
// the microsecond after it), "since A" and "on
// or after A" where A starts, both running to the end of the store ("on
// or before B" runs through B; other joined relations, "by or on D",
// are refused); "until B" and "before B"
// end where B starts; "during P", "in P", "on D" are P's period, and so
// is "of P" after a noun naming what is counted ("the raters of 2013")
// or a part of P ("which day of June 2004"), and so is a period's
// possessive ("June 2004's messages"); "N days
// starting A" is [A, A+N). A weekday range beside a window ("(Monday to
// Friday)") restates its first and last days: read when both agree,
// refused when either does not; after "the week of D" it says which of
// the week's days are meant, starting on D (which settles a slashed D).
// A plural period noun before a range of those periods ("the days 8
// until 10 June", "the months May to July") names what it lists. Compact day ranges name whole days, the last
// included: "5 to 11 January 1970", "the 5th to the 11th of January",
// "Monday 2 and Friday 6 March", "June 1-7", "May 3–9, 2004", and a dash
// between two dates ("2004-06-01 - 2004-06-07"). No window means the
// whole store, and the reading says so.
//
// Weeks and parts of periods: "the week beginning (starting, commencing,
// from) D" is seven days from D, "the week after D" seven days from D's
// end; "the first day of P", "the first three days of P", "the first two
// weeks (fortnight) of P" and "the last 10 days of P" must lie inside P.
// "14 and 15 May" is both days (two days apart are refused), "Monday and
// Tuesday, the 11th and 12th of May" too when the weekdays are theirs,
// and "January to June 1970" or "(July–September)" names whole months,
// the last included; "April, May and June" is one window when the months
// follow one another. A numeric zone right after a period shifts it ("3
// May 2004 (UTC+2)"), and so does a city's zone ("June 2004, Seoul
// time", "in Lisbon time (UTC+1)"): a city naming one zone of the IANA
// database (embedded) reads as that zone's offset on those days, which
// must be one offset for the whole period and agree with an offset or a
// summer-time remark written beside it ("no daylight saving in March").
// "by P" is refused (before P starts, or by its end?), while
// "the end of P" (or "the close of P") only ends a range ("until", "before",
// "by", "up to") or is a deadline ("the deadline is the end of P", "a
// deadline of T", which end the window as "until" does; a deadline of a
// whole period is refused, as "by P" is): the instant P ends, since as
// a window's end P's last microsecond and the instant after it bound the
// same events; "at the end of P" is refused (P's last microsecond or the
// one after?). "we begin counting on D" starts the window ("counted
// from D" alone is a bucket origin), and an "if" clause that only sets
// a deadline frames a path question. "before P is over" speaks from
// inside P, so P is the window ("until P is over" is refused: the period
// or its end?), and "before the day (week, month) was out" points back
// at the window written, which must lie inside one such calendar period.
// Times of day in words carry their part of the day ("eight in the
// morning", "five in the afternoon", "a quarter past eight on the
// evening of D"; "08:00 on the evening of D" is refused); without one
// ("ten past eight", "nine o'clock") they are morning or evening, read
// only where a range's end settles which ("between eight o'clock and
// noon") and refused elsewhere, and "midnight at the end of D" is where
// D ends. A time of day "N hours (minutes, days) later" is that long
// after the instant written just before it, whose time of day it must
// name ("from midnight on 9 June to midnight forty-eight hours later").
// A time of day written after a day in the same phrase, with only range
// words between ("on 9 June between 17:00 and 18:30", "on D after 5pm"),
// takes that day, and the day and the window inside it are one window.
// A part of the day no time of day reads ("on 9 June in the evening",
// "the morning of D", "overnight") is refused: it has no agreed hours.
// So is a period named from the moment of asking ("this week", "last
// month", "that day") in a question that writes no time. Relative days are read against the question's own dates:
// "Friday the 15th" takes the month and year of the nearest date written
// before it and must fall on a Friday; "the Tuesday" is a Tuesday
// written before, or the first Tuesday after the nearest date; "Tuesday
// week" (the Tuesday after the next one) only with the day it is counted
// from ("Tuesday week, counting from Thursday 6 May", not from a
// Tuesday). A slashed date is read in one order only when the other is
// impossible by a fact of the calendar (no such day, a weekday written
// with it, "Mon 8/5/13") or of the question's own writing (a slashed
// date whose day exceeds 12 settles the others) or of the store (a
// belief date whose one reading is a day before the store's first
// transaction, when it believed nothing; a date both of whose readings
// are after every valid time of the store can only be a belief time,
// with no belief phrase before it too, and is refused when read as a
// valid time). One writer keeps one convention within a question: an
// order settled by a weekday or a belief date settles the question's
// other slashed dates as a day over 12 does, two slashed dates settled
// in different orders are refused, and so is a weekday neither reading
// falls on (the refusal names both days); a restatement beside it
// ("03/04/1970 (the fourth of March)") does not settle it. "3/24" inside
// a restatement is a month and day in the year of the window it
// restates, and so are bare days there ("(1 to 7)").
//
// Restatements and bounds: a window written twice ("Q3 2004
// (July–September)", "the week of 5/24/2004 (5/24-5/30)") is one window
// when both agree, a refusal naming both when not; so is a length
// written beside it ("(seven days)", ", seven days"), "(midnight both)"
// and "(midnight to midnight)". An exclusive end said again ("(excl)",
// "up to, but not including,", "(not including)") agrees with "to",
// "until" and "up to" and is refused after "through"; "(that instant
// included)" agrees with a start. A pure bound ("since A", "until B",
// "by the end of B") restricts the window beside it to their
// intersection (one past every valid time of the store cuts nothing and
// may be a belief time written without its word: refused; "by" before a
// time is this bound, never the agent of a passive "sent by"), and a lower and an upper bound written apart are one
// window; "on D" after a start verb ("starts on", "began writing on") is
// the window's start when the question writes its end, and the day D
// otherwise. A bucket origin ("7-day buckets counted from A") is no
// bound: beside another window it is refused. "from midnight" after
// buckets restates that they are counted from the window's start when
// the buckets counted from midnight are the same ones (a window of one
// day from midnight, or buckets dividing a day whose grid the window's
// start lies on), and is refused otherwise (origin_midnight.go).
//
// Calendar cycles: "the hour of the day", "the day of the week" (or
// "weekday") and "the month of the year" with "most" or "busiest" ask for
// the busiest position of that cycle across the window at UTC, or at a
// fixed offset written as "UTC+9" (over the whole store only: a written
// window would be read in UTC), not the single busiest hour, day or
// month. "Which hour" alone over more than a day is refused: the hour of
// the day, or one particular hour ("which single hour", "hour bucket")?
// A negation that only sets a date aside ("a weekday name, not a date")
// restates the cycle. Once a cycle is named, so do a fold over the
// period it repeats over ("summed over all the days" for the hour of the
// day, "across all the weeks" for the weekday), "the hour of the clock"
// beside "the hour of the day", and "not one particular hour (on one
// particular day)"; without a cycle phrase they are refused ("the clock
// hour" alone may be one particular hour). A question whose answer is the first row of an
// empty result ("when does n277 first become reachable", "the first
// burst") is answered "none" over that window.
//
// Reach and paths: the words of time-respecting reachability come from
// WordNet synsets of the concept's head words (reach_words.go says
// which): "within reach of", "downstream", "got to", "found its way",
// "flow", and "passed along". Words naming how a message travels
// (forwarded, relayed, onward, influence) name the path model: only
// reach, path and motif questions accept them, so "how many messages
// did n5 forward" is refused rather than read as messages sent.
// "However indirectly", "directly or through others" and a hedge before
// a route through others ("possibly via others") include the direct
// path and read as reach; "via others" alone may exclude it, and is
// refused. "Only" beside "time-respecting" restates the model. A
// relative pronoun after a node noun or a time noun ("the people who n5
// can reach", "the time at which", "the chains by which") opens a
// clause, not a question. In a two-node path question the subject of a
// receiving verb is where paths end and the subject of a sending verb
// where they start ("the earliest n7 could have received, however
// indirectly, something n8 sent" goes from n8 to n7), as suggestions
// do. A path's length bound may be written in its events, digits or
// number words, in a question about chains, paths, routes or ways:
// "chains of at most three e-mails", "no more than 4 messages", "up to
// five", "one or two messages"; "more than three" and "two or three"
// (a lower bound) are refused. "How many (distinct) chains" and "how
// many ways" count paths; "how soon" asks when, and so do "how fast"
// and "how quickly" when the question names the first (earliest)
// arrival time it wants (alone they may ask for an elapsed time). Latest departure: "left
// it" ("how late could n5 have left it to send") departs, "leave a
// message" sends (and is no departure), and "and still reach",
// "still have it arrive" after "latest" or "how late" name the
// departure; "before the day (week, month, year) is over (out)" must
// restate the window (one day; two to seven whole days; a calendar month
// or year), and is refused otherwise.
//
// A maximum wait at each node is read into the plan (delta_max_wait) in
// three forms only (max_wait.go): a negative subject with a wait verb
// and "longer (more) than D" ("if nobody held a message for longer than
// two hours before passing it on": no wait exceeds D), a wait verb with
// "at most (no longer than, up to) D", and "a maximum wait of D"; only
// reach, earliest-arrival and latest-departure questions take one. Any
// other wording of a wait is an unknown word, and refused.
//
// Conditionals: "if", "supposing", "assuming" open a clause that is a
// condition unless it only frames a reach or path question's own slots:
// a clause (up to the next comma) of the question's node and times,
// filler, event and node nouns, and at least one start verb, path-model
// word or look at the window ("if n5 starts on D", "if it was forwarded
// along the way", "if we look only at D"); then the conditional is
// ignored and listed. A clause with any other word (a sending, receiving
// or reach verb, an adjective such as "active", a negation, a
// comparison) is a condition, and refused; so is "if n5 starts on D"
// with no end written anywhere (reach by the end of D, or ever after?).
// ", when messages can be passed along" after a reach question, with
// no slot in it, restates the model the same way, and so does a clause
// saying each node passes on only what it has already received ("on the
// assumption that each recipient forwards only what it has already
// received", model_clause.go): that is time order along a path.
//
// Counting: a follow-up pair is two events one node sends, the second at
// or after the first in (time, event id) order and at most δ after it,
// over the question's window (the whole store when none is written),
// counted as the two-hop pattern x→v, x→w; a gap written between the
// pair's two events ("within 5 minutes of each other", "5 minutes
// apart") says they follow one another, and a verb of arriving before
// it ("land within a minute of each other") says when they happen; so
// does an event written against its predecessor ("a further message",
// "later than a previous one", "after the one before"), and "strictly"
// asks for the second at a later time (a tie at one instant is no pair).
// In a pair question "the first" and "the second" name the pair's two
// events ("pairs in which the second was sent at most ten minutes after
// the first": they follow one another), and "in which" before them opens
// a clause on the pairs. A remark on events stamped with one instant
// ("two copies logged at the same second count as one pair", "messages
// sent at the same instant included, each such pair once") restates the
// (time, event id) order, in which two such events are one pair; one
// that excludes them ("are excluded", "do not count") asks for the
// second strictly later; any other remark is refused. "How often" there
// asks the count when the question also asks for "the number of (such)
// pairs", and is refused otherwise (a count or a rate?).
// The recipients may be the same unless the question writes "to a different
// (another, distinct) recipient"; "the same recipient allowed" restates
// that, and any other "same recipient" restricts and is refused, as are
// pairs of received events. "of P" after a period noun the question
// ranks ("which day of January 1970 had the most") names the window
// those periods divide, and so does a period in the possessive ("March
// 2013's pairs"). "calendar" before a period word ("which calendar day",
// "the busiest calendar month") asks for buckets of the calendar (UTC;
// "ISO week" and "calendar week" run Monday to Sunday, which a
// parenthesis after one may restate, "(Monday to Sunday weeks, not
// blocks counted from D)" with D the window's start and no Monday;
// other weekdays there are refused, week_restate.go),
// and so does a month or year asked for as the busiest, as these have no
// fixed width; "which month" written without "calendar" is read so only
// inside one calendar year (over more, the month of the year or one
// calendar month?). Other buckets are of a fixed width counted from the
// window start, and a burst test needs one. "day by day", "hour by hour"
// and "by the day" (ending a clause or before a window) are buckets of
// that unit; "by the day after D" is a deadline. A clause opened by
// "when" or "if" and a subject with a verb of counting ("…, when we use
// weekly buckets", "if you take 10-day buckets") says which buckets are
// meant: it is the bucket slot, neither a question nor a condition
// (bucket_frame.go), unless it holds a node, a word no slot reads, or a
// time other than the start of a window the question ends elsewhere.
// "consecutive" before buckets says what buckets are; a year right
// after a verb dividing it ("split 2004 into weeks") is the window. A
// parenthesis listing where buckets of whole days start ("(so blocks
// starting on the 1st, the 8th, the 15th and so on)") restates them
// when the days are the origin's and then one bucket apart, and is
// refused otherwise or with no origin written (bucket_starts.go). Naming the store's
// default burst test ("by the standard z-score test") restates it, and a
// verb of arriving right after a burst noun ("when did the first burst
// hit") is the burst happening. "how much is it" after a measure asks
// for its value ("the reciprocity in May, how much is it?"). A
// node's own bursts ("n5's activity", "sent and received") test the
// events it sends or receives together; one direction alone is refused.
// "Only" confining such a question to the node's own events ("looking
// only at n5's own traffic") restates that series; in any other
// question it restricts, and is refused.
// "created" of an event is its happening, read only where no node is
// named (a creator or a subject would be a role).
//
// Fragments: a question with no word that asks ("ratings sent by n5 in
// May", "versions of n7 as of tt T") asks how many when its first noun
// names something only counted (events, paths, motif instances,
// versions); one naming nodes (a list or a number?) is refused, and so
// are words that do not join into one phrase.
//
// Durations are taken exactly as written ("1.5 hours" is 5,400,000,000
// µs; a value that is not a whole number of microseconds is refused;
// number words read as numerals, "thirty-six", "half an hour" and "a
// quarter of an hour" too):
// "weekly", "daily", "10-day buckets", "in buckets of 3 days", "within 2
// hours", "δ = 90 minutes", "a one-day burst"; a rounded figure with "(N
// µs)" beside it is read as N, which must round to the figure. A
// calendar bucket is one mechanism whatever word asks for it ("which",
// "the busiest", "the most active", "the heaviest"): a calendar day,
// week, month or year is the calendar's own period (above), and a
// "calendar hour" is the clock's, which is the fixed hour only when the
// window starts on the hour (refused otherwise).
//
// Belief time: "as of transaction time T", "as of belief time T", "as the
// store believed on D" (a day means the end of that day), "believing what
// we believed at T", "before the correction at T" (T − 1 µs), "the
// store as it was at T" and "as the archive stood at T" (the record, not
// the graph; "as it was before D" is the belief before D began); "now",
// "currently", "under current belief" or nothing: the store's latest
// belief. A bare "as of T" is a valid time, not a belief time. A
// closing "including anything recovered since" (or "with everything
// corrected since then") asks for every write up to now: beside the
// latest belief it restates it, and beside an earlier belief time it is
// refused (belief_since.go).
package reader
