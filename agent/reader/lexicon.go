package reader

import "strings"

// Concepts: what a content word contributes to choosing an intent.
const (
	cHowMany   = "how-many"
	cWhich     = "which"
	cWhen      = "when"
	cNodeNoun  = "node-noun"
	cEvent     = "event"
	cReach     = "reach"
	cTimeOrder = "time-order"
	cFirst     = "first"
	cLatest    = "latest"
	cDepart    = "depart"
	cPath      = "path"
	cNeighbour = "neighbour"
	cDegree    = "degree"
	cSend      = "send"
	cReceive   = "receive"
	cPeak      = "peak"
	cMost      = "most"
	cNew       = "new"
	cRecip     = "reciprocity"
	cShare     = "share"
	cPartner   = "partner"
	cDistinct  = "distinct"
	cVersion   = "version"
	cCorrect   = "correction"
	cEvolve    = "evolution"
	cAdded     = "added"
	cRemoved   = "removed"
	cPresent   = "present"
	cSnapshot  = "snapshot"
	cCompare   = "compare"
	cNot       = "not"
	cBurst     = "burst"
	cTriangle  = "triangle"
	cPingPong  = "ping-pong"
	cMotif     = "motif"
	cPair      = "pair"
	cFollow    = "follow"
	cGained    = "gained"
	cLost      = "lost"
	cBetween   = "between"
	cEither    = "either"
	cAround    = "around"
	cBucket    = "bucket"
	cTimeNoun  = "time-noun"
	cRank      = "rank"
	cPeriod    = "period"
	// Words that change a question's meaning in ways no intent handles.
	cUnsupported = "unsupported"
	cSenders     = "senders"    // a noun naming who sent
	cRecipients  = "recipients" // a noun naming who received
	cMade        = "made"       // a verb of an event's coming into being ("ratings created")
	cSameAllowed = "same-ok"    // "the same recipient allowed": pairs to one recipient count too
	cStrict      = "strict"     // "strictly later": a later time, not only a later place in (time, event id) order
	// cIgnored marks a phrase of politeness or hedging: no concept, and
	// the reading lists it as ignored.
	cIgnored = "-"
)

// phrases are read before single words, longest first; each becomes one
// concept ("" for a phrase that only restates a definition).
var phrases = []struct {
	words string
	cpt   string
}{
	{"follow one another", cFollow}, {"follow each other", cFollow}, {"followed each other", cFollow}, {"one after another", cFollow}, {"back to back", cFollow},
	{"in that time", ""}, {"over that period", ""},
	{"for the first time", cNew}, {"became active", cNew}, {"show up", cNew}, {"showed up", cNew},
	{"shared an edge with", cNeighbour}, {"directly connected to", cNeighbour},
	{"connected to", cNeighbour}, {"linked to", cNeighbour},
	{"reverse direction", cRecip}, {"both directions", cRecip}, {"two way", cRecip}, {"other way", cRecip},
	{"in either direction", cEither}, {"either direction", cEither}, {"in both directions", cEither},
	{"with whom", cWhich + "+" + cPartner}, {"from whom", cWhich}, {"to whom", cWhich}, {"talk to", cPartner}, {"talked to", cPartner}, {"talked with", cPartner}, {"dealt with", cPartner},
	{"in touch with", cPartner}, {"exchange messages with", cPartner}, {"exchanged messages with", cPartner},
	{"if you would be so kind", cIgnored}, {"if you would", cIgnored}, {"if i may ask", cIgnored}, {"if i may", cIgnored},
	{"if possible", cIgnored}, {"if you can", cIgnored}, {"if you could", cIgnored}, {"would you be able to", cIgnored},
	{"could you", cIgnored}, {"can you", cIgnored}, {"would you", cIgnored}, {"i would like to know", cIgnored},
	{"i want to know", cIgnored}, {"do you know", cIgnored}, {"let me know", cIgnored}, {"roughly speaking", cIgnored},
	{"i gather", cIgnored}, {"i am told", cIgnored}, {"i understand", cIgnored}, {"it seems", cIgnored},
	{"seems to", cIgnored}, {"seem to", cIgnored}, {"appears to", cIgnored}, {"appear to", cIgnored}, {"however indirectly", cReach},
	{"as far as the store knows", cIgnored}, {"as far as we know", cIgnored}, {"as far as i know", cIgnored}, {"as far as you know", cIgnored},
	{"that is to say", cIgnored}, {"i mean", cIgnored}, {"so to speak", cIgnored},
	{"in principle", cIgnored}, {"all told", cIgnored}, {"thank you", cIgnored},
	{"in order of time", cTimeOrder}, {"no earlier than", cTimeOrder},
	{"back and forth", cPingPong}, {"ping pong", cPingPong}, {"tit for tat", cPingPong},
	{"how much is it", cIgnored}, {"how much it is", cIgnored}, {"how much was it", cIgnored}, {"how much it was", cIgnored},
	{"most active", cPeak}, {"how many", cHowMany}, {"how much mail", cHowMany + "+" + cEvent}, {"how much email", cHowMany + "+" + cEvent},
	{"how much traffic", cHowMany + "+" + cEvent}, {"how much activity", cHowMany + "+" + cEvent}, {"how much", cUnsupported}, {"number of", cHowMany},
	{"on record", ""}, {"take part in", cAround}, {"takes part in", cAround}, {"took part in", cAround}, {"taking part in", cAround}, {"part of", ""},
	{"so far", ""}, {"at all", ""}, {"at any point", ""}, {"all time", ""}, {"of all", ""}, {"in total", cHowMany},
	{"the whole store", ""}, {"the whole dataset", ""}, {"the whole graph", ""}, {"the entire store", ""},
	{"ranked by", cRank}, {"in terms of", cRank},
	{"time respecting", cTimeOrder}, {"time ordered", cTimeOrder}, {"time-respecting", cTimeOrder},
	{"forward in time", cTimeOrder},
	{"what time", cWhen}, {"at what time", cWhen}, {"what moment", cWhen},
	{"pass it on", cReach}, {"passed on", cReach}, {"get to", cReach}, {"got to", cReach}, {"hear from", cReach}, {"hears from", cReach},
	{"in common", cUnsupported}, {"3 cycle", cTriangle}, {"3 cycles", cTriangle}, {"2 node", ""},
	{"how late", cLatest}, {"how soon", cFirst + "+" + cWhen}, {"ping pongs", cPingPong}, {"highest number of", cPeak}, {"largest number of", cPeak},
	{"earliest arrival", cReach + "+" + cFirst + "+" + cWhen}, {"first arrival", cReach + "+" + cFirst + "+" + cWhen},
	{"arrival time", cReach + "+" + cWhen},
	{"either side", cAround}, {"both sides", cAround}, {"one side or the other", cAround}, {"on either side", cAround}, {"either way", cEither}, {"both ways together", cEither}, {"in both ways", cEither},
	{"by way of", ""}, {"restricting attention to", ""}, {"restrict attention to", ""}, {"applied to", ""}, {"flagged as", ""},
	{"sit in", ""}, {"sits in", ""}, {"reach set", cReach}, {"reachable set", cReach},
	{"message volume", cHowMany + "+" + cEvent}, {"mail volume", cHowMany + "+" + cEvent}, {"email volume", cHowMany + "+" + cEvent},
	{"rating volume", cHowMany + "+" + cEvent}, {"traffic volume", cHowMany + "+" + cEvent}, {"event volume", cHowMany + "+" + cEvent},
	{"brand new", cNew}, {"most prolific", cPeak},
	{"if you would be so good as to", cIgnored}, {"be so good as to", cIgnored}, {"no matter", cIgnored},
	{"only that direction", cIgnored}, {"only in that direction", cIgnored}, {"in that direction only", cIgnored}, {"that direction only", cIgnored},
	{"at that instant only", cIgnored}, {"at that moment only", cIgnored}, {"at that very instant", cIgnored},
	{"at that exact second", cIgnored}, {"at that very second", cIgnored}, {"at that same second", cIgnored}, {"at that second", cIgnored},
	{"at that same instant", cIgnored}, {"at that exact instant", cIgnored}, {"at that exact moment", cIgnored},
	{"in the sense of", cIgnored}, {"in the sense that", cIgnored},
	{"returned the favour", cRecip}, {"return the favour", cRecip}, {"favour returned", cRecip},
	{"returned the favor", cRecip}, {"return the favor", cRecip}, {"favor returned", cRecip},
	{"standard z score test", cBurst}, {"default z score test", cBurst}, {"usual z score test", cBurst}, {"z score test", cBurst},
	{"same recipient allowed", cSameAllowed}, {"same recipient included", cSameAllowed}, {"same recipient permitted", cSameAllowed},
	{"same person allowed", cSameAllowed}, {"same person included", cSameAllowed}, {"same node allowed", cSameAllowed}, {"same node included", cSameAllowed},
	{"later than a previous one", cFollow}, {"later than the previous one", cFollow}, {"later than an earlier one", cFollow}, {"later than the one before", cFollow},
	{"after a previous one", cFollow}, {"after the previous one", cFollow}, {"after an earlier one", cFollow}, {"after the one before", cFollow},
	{"it means", cIgnored}, {"which means", cIgnored}, {"how reciprocal", cRecip},
	{"most number of", cPeak}, {"right now", ""}, {"closed by", ""}, {"each other", ""}, {"one another", ""},
}

// words maps single words (lower case) to concepts.
var words = map[string]string{}

func addWords(cpt string, ws string) {
	for _, w := range strings.Fields(ws) {
		words[w] = cpt
	}
}

func init() {
	addWords(cHowMany, "count tally total")
	addWords(cWhich, "which who whom list name identify enumerate find")
	addWords(cWhen, "when")
	addWords(cNodeNoun, "node nodes vertex vertices user users account accounts people person member members student students participant participants individual individuals one ones")
	addWords(cEvent, "message messages event events interaction interactions contact contacts email emails rating ratings edge edges activity traffic communication communications messaging interacted interact exchange exchanges exchanged transfers post posts link links chat chats exchanging")
	addWords(cReach, "arrival reach reaches reached reachable reaching spread spreads propagate propagates propagated travel travels arrive arrives arrived arriving land lands gets hear hears heard")
	addWords(cTimeOrder, "chain chains")
	addWords(cFirst, "first earliest soonest")
	addWords(cLatest, "latest last")
	addWords(cDepart, "leave leaves leaving depart departs departure departing")
	addWords(cPath, "path paths route routes journey journeys")
	addWords(cNeighbour, "neighbour neighbours neighbor neighbors neighbourhood neighborhood adjacent")
	addWords(cDegree, "degree incident touching")
	addWords(cSend, "sent send sends sending outgoing wrote write writes messaged emailed rated written")
	addWords(cSenders, "sender senders")
	addWords(cRecipients, "recipient recipients receiver receivers")
	addWords(cReceive, "received receive receives receiving incoming inbound got")
	addWords(cPeak, "busiest peak highest heaviest")
	addWords(cMost, "most")
	addWords(cNew, "new appeared appear appears joined join joins newcomers")
	addWords(cRecip, "reciprocity reciprocated reciprocal answered replied reply replies mutual returned")
	addWords(cShare, "share fraction proportion percentage percent ratio")
	addWords(cPartner, "partner partners correspondent correspondents interlocutors counterparts")
	addWords(cDistinct, "distinct different unique separate")
	addWords(cVersion, "version versions history revisions")
	addWords(cCorrect, "correction corrections corrected correcting fixed fixes revised amended")
	addWords(cEvolve, "evolution evolved evolve evolving retracted retraction retractions")
	addWords(cAdded, "added")
	addWords(cMade, "created")
	addWords(cRemoved, "removed disappeared vanished gone dropped deleted")
	addWords(cPresent, "present existed exist existing")
	addWords(cSnapshot, "snapshot snapshots")
	addWords(cCompare, "comparing compared compare versus vs")
	addWords(cNot, "not no never without except excluding neither nor n't")
	addWords(cBurst, "burst bursts bursting spike spikes surge surges")
	addWords(cTriangle, "triangle triangles cycle cycles cyclic")
	addWords(cPingPong, "pingpong alternating")
	addWords(cMotif, "motif motifs pattern patterns instance instances")
	addWords(cPair, "pair pairs ordered")
	addWords(cFollow, "follow follows followed gap gaps further")
	addWords(cStrict, "strictly")
	addWords(cGained, "gained gain gains gaining acquired")
	addWords(cLost, "lost lose loses losing")
	addWords(cBetween, "between")
	addWords(cAround, "around involving involve involves involved")
	addWords(cBucket, "bucket buckets bin bins slice slices chunk chunks")
	addWords(cTimeNoun, "time µs μs microseconds timestamp")
	addWords(cRank, "top rank ranking leading biggest largest")
	addWords(cPeriod, "period interval stretch spell window day week hour month year quarter calendar")
	addWords(cUnsupported, "average mean median longest shortest fastest slowest least fewest fewer less more than greater smaller "+
		"percentile centrality central influential important pagerank betweenness cluster clustering community communities "+
		"predict forecast will tomorrow yesterday today ago next delete insert update create "+
		"sum minimum maximum min max longer shorter always if why how "+
		"original originally initial initially")
	// Filler: words that carry no intent of their own here.
	for _, w := range strings.Fields(`a an the of in on at to from by for with and or but as into onto within inside over during throughout
		across along via using use used through thru than then that this these those there here it its it's they them their
		do does did done doing was were is are be been being has have had having can could would should might must shall
		what whats what's what’s please tell me us we our i you your my give get find out let see know knew known
		store stored graph dataset data network database db record records recorded
		between among amongst only also just still ever all any each every some someone something anything anybody
		other others else another same own itself themselves himself herself
		happen happened happens take took taken took occur occurred occurs
		time times date dates moment instant point started start starts starting begin begins beginning began
		end ends ending ended stood stand standing state
		along up down back off again altogether overall inclusive inclusively exclusive included including
		valid direct directly one-hop hop hops immediate
		then when whenever where whether
		become became becomes active
		believed believe believes believing belief current currently now present-day latest-belief today's
		transaction tt known
		so such very really exactly precisely roughly
		made make makes making
		hold holds held keep kept
		form forms formed forming
		having cut split splitting divided dividing group grouped grouping
		counted according
		recorded logged registered
		result results answer answers
		usual rate rates level levels
		starting after before since until till by
		something anyone everyone
		temporal δ delta δ-temporal span spanning spans completing complete completes completed
		apart together
		acts act acting sends
		again per
		information info under directed undirected against play plays playing considering consider restricting restrict restricted
		go goes eventually towards toward lead leads led passed pass right closed changes change changed second
		played counts
		counting consecutive successive show shows showed shown
		take`) {
		if _, ok := words[w]; !ok {
			words[w] = ""
		}
	}
	// "following ratings forward in time": a participle, not "follow".
	words["following"] = ""
	// Variable names in motif notation (a→b→c→a) are filler too.
	for _, w := range []string{"a", "b", "c", "x", "y", "z"} {
		words[w] = ""
	}
}
