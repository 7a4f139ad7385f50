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
//     a lexicon of concepts (reach, first, send, neighbour, burst, …) with
//     their synonyms, and filler. An unknown word, a number no slot
//     explains or a word no intent can honour ("average", "fastest") is a
//     refusal: the reader never answers a question it did not fully read.
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
// swapped; "May 3, 2004", "May 3rd 2004", "3 May 2004", "the 3rd of May
// 2004"; a time of day before or after a date ("noon UTC on May 3, 2004",
// "May 3, 2004 at 15:30 UTC", "3pm", "midnight", "10:00+02:00"); months
// ("May 2004", "in June": a missing year is filled in when exactly one
// year of the store's extent fits, and the reading says so); weeks ("the
// first week of June 2004" is June 1–7, "the last week of …" the last
// seven days, "the week of May 3, 2004" seven days from then, "2004-W23"
// and "week 23 of 2004" ISO weeks); quarters ("Q3 2004", "2004-Q3", "the
// third quarter of 2004"); years after a preposition ("in 2004"). A date
// followed by "(microseconds)" is pinned to that exact instant, which must
// lie inside the written date.
//
// Ranges: "from A to B", "between A and B", "A .. B" are [A, B); "A
// through B" and "A to B inclusive" end at the end of B's period; "since
// A" runs to the end of the store, "until B" from its start; "during P",
// "in P", "on D" are P's period; "N days starting A" is [A, A+N). No
// window means the whole store, and the reading says so.
//
// Durations are taken exactly as written ("1.5 hours" is 5,400,000,000
// µs; a value that is not a whole number of microseconds is refused):
// "weekly", "daily", "10-day buckets", "in buckets of 3 days", "within 2
// hours", "δ = 90 minutes", "a one-day burst"; a rounded figure with "(N
// µs)" beside it is read as N, which must round to the figure.
//
// Belief time: "as of transaction time T", "as of belief time T", "as the
// store believed on D" (a day means the end of that day), "believing what
// we believed at T", "before the correction at T" (T − 1 µs); "now",
// "currently", "under current belief" or nothing: the store's latest
// belief. A bare "as of T" is a valid time, not a belief time.
package reader
