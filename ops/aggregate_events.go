package ops

const aggDayUS = 86_400_000_000

func init() {
	Register(&Spec{
		Name:    "aggregate_events",
		Summary: "Grouped aggregation over edge events in a window: counts, distinct counts, sums/means/min/max of a property or duration, gaps, sessions, returns, windowed distinct counts and reply delays.",
		Doc: `Aggregates edge events whose event time lies in window [t_a, t_b), grouped by
up to three dimensions.
Events: the believed edge versions as of as_of_tt, one per occurrence. A
version that continues another believed version of the same identity (a
fragment left by a correction or retract that carved an interval) is not a
new event: the occurrence is counted once, at the vt_s of its first fragment
(the event time); its props are that first fragment's, and its duration is
from the event time to the end of its last contiguous fragment (open-ended
occurrences have no duration). Population: events with t_a <= event time <
t_b, then rel_types, then authority (the first fragment's writing batch:
user, model, import or system; a batch that stated none is import for a
bulk load, else system), then endpoint_filter {role src|dst|either, uids},
then prop_filter.
prop_filter {prop, cmp, value}: cmp eq, ne, lt, le, gt, ge compare props[prop]
with value under a strict type-class rule: classes are number (integers and
floats, compared exactly: 1 equals 1.0; booleans are not numbers), string
(compared by code point; text is never parsed as a number) and boolean (eq
and ne only). An event whose value is of another class than the literal —
missing key, null, object, array or a different class — does not take part:
it is excluded and counted in prop_coercion[prop]; an event that compares
false is excluded silently (so ne also excludes other classes). cmp exists
keeps events whose props have prop with a non-null value (no value
argument, nothing counted). value null, an object or an array, or a boolean
with an order comparison, is E_INVALID_ARG.
Dimensions (group_by items, column names in brackets):
  {dim:"time_bucket", stride:s}            [t_a, t_b] bucket i = (time - window.t_a) div s,
      t_a = window.t_a + i*s, t_b = min(t_a + s, window.t_b);
  {dim:"time_bucket", unit:"day"|"week"|"month"|"year", utc_offset_minutes:m}
      [t_a, t_b, bucket] calendar buckets of local time (time + m minutes, a
      fixed offset, no DST; required, 0 for UTC); weeks are ISO weeks from
      Monday; bucket is "2024-01-15", "2024-W03" (ISO week-year), "2024-01"
      or "2024"; t_a/t_b are the bucket's bounds in UTC µs clipped to the
      window. More than 2000 buckets in the window is E_LIMIT (use a larger
      stride, a coarser unit or a narrower window);
  {dim:"calendar_cycle", cycle:c, utc_offset_minutes:m}  [c] the position of
      the local event time (time + m minutes, fixed offset, required) in a
      cycle, an integer: hour_of_day 0..23, day_of_week 1 (Monday)..7
      (Sunday), day_of_month 1..31, month_of_year 1..12 ("messages by hour
      of day" groups every day's hour 14 together);
  {dim:"endpoint", role:"src"|"dst"|"either"}  [src | dst | node];
  {dim:"label", role:"src"|"dst"|"either"}     [src_label | dst_label | node_label]
      the label of the endpoint's node version believed at as_of_tt and
      valid at the event time, null if it has none;
  {dim:"rel_type"}                             [rel_type];
  {dim:"pair", pair_mode:"directed"|"undirected"}  [src, dst] directed
      (default) or [node_a, node_b] undirected, node_a <= node_b by code point.
role either: each event is viewed from each of its endpoints (once for a
self-loop) and all either-dimensions read that endpoint; an event is counted
at most once per group, so group counts can add up to more than the number
of events. Two dimensions producing the same column are E_INVALID_ARG.
Aggregates (columns): count [count]; count_distinct of src|dst|node|pair
[distinct_src, distinct_dst, distinct_node (either endpoint), distinct_pair
(directed pairs)]; sum of duration|prop, mean|min|max of duration|vt_s|prop
[sum_duration, mean_vt_s, min_prop, ...]; first|last of src|dst
[first_src, last_dst, ...] the counterpart of the group's earliest (latest)
event, ties at one time broken by the smaller (src, dst) uids in code-point
order, null for an empty group ("who sent the first message to B": group
by endpoint dst, first of src; its time is min of vt_s); max_gap [max_gap] the largest
difference between consecutive event times (null below 2 events);
max_in_window with span [max_in_window] the most events in any
[t, t + span) starting at an event time t (0 for an empty group);
max_distinct_in_window of src|dst|node|pair with span
[max_distinct_src_in_window, ...] the most distinct values (node: either
endpoint) among the events of any [t, t + span) starting at an event time
t, 0 for an empty group; events at one time are all in a window or all
out of it, so ties need no rule; span is cut to the window's length, so a
span covering the window equals count_distinct ("the most distinct
recipients one account reached within any hour": group by endpoint src,
max_distinct_in_window of dst, span 3600000000);
reply_delay with stat count|min|median|mean|max [replied,
min_reply_delay, median_reply_delay, mean_reply_delay, max_reply_delay]:
the reply to an event a→b is the first event b→a of the population
(window, rel_types, endpoint_filter, prop_filter: use endpoint_filter role
either to keep both directions) strictly later than it (a reply at the same
time is not one; a self-loop's reply is the next self-loop); the delay is
their time difference; over the group's replied events: count, min,
median (the lower middle value, a real delay), exact mean, max, null
when none replied ("the median reply delay per directed pair": group by
pair, reply_delay median);
max_session_span with gap [max_session_span]: event times split into
sessions wherever consecutive times differ by more than gap, the longest
session's last - first (0 for one event, null for none); returns with
gap [returns]: how many times the group came back after a silence over
gap, the consecutive event times more than gap apart (0 for under two
events; events at one time are never apart; "how often did A write again
after a week's silence": group by endpoint src, returns, gap one week);
first_k|last_k with k and stat count|sum|mean|min|max (sum, mean, min,
max with of as for the plain aggregates) [count_first_k, mean_prop_first_k,
max_vt_s_last_k, ...]: the stat over the group's first (last) k events
(all of them when the group has k or fewer), the events ordered by time,
ties at one time by the smaller (src, dst) uids in code-point order, then
eid; last_k takes the latest times first and, within one time, the same
tie order, so first_k 1 and last_k 1 read first's and last's event; a
selected event whose value is not a number is skipped, as in the plain
aggregates ("the mean of each account's first 5 ratings received": group
by endpoint dst, first_k, k 5, stat mean, of prop, prop rating). All prop
aggregates of a call read the same property (prop); a value that is not a
JSON number is skipped and counted once per event in prop_coercion[prop].
Arithmetic is exact: integer sums are exact (an integer sum is reported as
an integer, or as the nearest float if it does not fit in int64), sums of
floats are exact sums rounded once, means are the exact mean rounded to the
nearest float (then to 9 decimals, like every computed float); min and max
report the stored value (an integer when an integer and a float tie). sum,
mean, min and max are null when no value took part.
Output: one row per non-empty group (with group_by [] exactly one row, even
when nothing matched) holding the dimension columns, the aggregate columns
and group_key (the dimension values in group_by order: t_a for a time
bucket, uids, labels, rel_type); rows_total is the number of groups.
prop_coercion {prop: count} is present when the call reads a property.
Post-aggregation, in this order: having [{col, cmp, value}] keeps the
groups whose aggregate column col compares (eq ne lt le gt ge, exactly, 1
equals 1.0) true with the number value for every predicate (a null
aggregate passes none); order_by [{col, dir asc|desc}] orders the kept
groups by output columns (nulls last in both directions, numbers by
value, strings by bytes; ties keep group_key order) and numbers them in
column rank (1, 2, ...); top k keeps the first k. Then rows_total is the
number of rows kept and groups_total (present with having or top) the
number of groups before. Example: the pair with most messages is
group_by pair, count, order_by count desc, top 1.
Memory: the groups a call holds count against its memory budget (256 MiB
unless the executor says otherwise; about 300 bytes a group); over it is
E_LIMIT naming the number of groups and bytes: narrow the window, restrict
rel_types, add an endpoint_filter, use pair_mode undirected, or use
coarser dimensions. Time buckets have no fixed cap: only non-empty
buckets are groups. The sequence aggregates also count what they keep of
each group's events: 8 bytes an event for returns and max_in_window, 16
for max_distinct_in_window and reply_delay (which adds 16 per event of the
population), 24 for first_k and last_k; over the budget is E_LIMIT naming
them.
endpoint_filter with uids [] keeps no event; a uid the store does not
know at as_of_tt matches no event (it is not an error: nobody sent or
received anything as that node).`,
		Args: Obj("", map[string]*Schema{
			"window": Window(),
			"group_by": Arr("up to three dimensions; [] = one global row", Obj("a dimension", map[string]*Schema{
				"dim":                Enum("what to group by", "time_bucket", "calendar_cycle", "endpoint", "label", "rel_type", "pair"),
				"cycle":              Enum("calendar_cycle: the position in which cycle (local time)", "hour_of_day", "day_of_week", "day_of_month", "month_of_year"),
				"role":               Enum("endpoint and label: which endpoint", "src", "dst", "either"),
				"stride":             Int("time_bucket: bucket width in µs").Range(1, 1<<62),
				"unit":               Enum("time_bucket: calendar unit instead of stride", "day", "week", "month", "year"),
				"utc_offset_minutes": Int("time_bucket with unit, calendar_cycle: fixed local offset from UTC in minutes (required with them)").Range(-1440, 1440),
				"pair_mode":          Enum("pair: directed (src, dst) or undirected (node_a <= node_b)", "directed", "undirected"),
			}, "dim")).Max(3),
			"aggregates": Arr("one to six aggregates", Obj("an aggregate", map[string]*Schema{
				"agg":  Enum("aggregate function", "count", "count_distinct", "sum", "mean", "min", "max", "first", "last", "first_k", "last_k", "max_gap", "max_in_window", "max_distinct_in_window", "reply_delay", "returns", "max_session_span"),
				"of":   Enum("what it reads: count_distinct src|dst|node|pair; sum duration|prop; mean/min/max duration|vt_s|prop; first/last src|dst; max_distinct_in_window src|dst|node|pair; first_k/last_k as sum/mean/min/max", "src", "dst", "node", "pair", "duration", "vt_s", "prop"),
				"prop": Str("the property, with of = prop").NonEmpty(),
				"stat": Enum("reply_delay: which statistic of the delays (not sum); first_k, last_k: which statistic of the events (not median)", "count", "sum", "min", "median", "mean", "max"),
				"k":    Int("first_k, last_k: how many events").Range(1, 1<<62),
				"span": Int("max_in_window, max_distinct_in_window: window length in µs").Range(1, 1<<62),
				"gap":  Int("max_session_span: largest gap inside a session; returns: the silence a return follows; µs").Range(0, 1<<62),
			}, "agg")).NonEmpty().Max(6),
			"rel_types": RelTypes(),
			"authority": AuthorityArg(),
			"endpoint_filter": Obj("keep events whose src, dst or either endpoint is among uids", map[string]*Schema{
				"role": Enum("which endpoint must match", "src", "dst", "either"),
				"uids": UIDList("the nodes ([] or unknown uids: no event)"),
			}, "role", "uids").OrNull(),
			"prop_filter": Obj("typed property predicate", map[string]*Schema{
				"prop":  Str("property name").NonEmpty(),
				"cmp":   Enum("comparison", "eq", "ne", "lt", "le", "gt", "ge", "exists"),
				"value": Any("literal: number, string or boolean (none for exists)"),
			}, "prop", "cmp").OrNull(),
			"having": Arr("keep the groups whose aggregate columns pass every predicate", Obj("a predicate col cmp value", map[string]*Schema{
				"col":   Str("an aggregate column of this call (count, distinct_src, mean_prop, ...)").NonEmpty(),
				"cmp":   Enum("comparison", "eq", "ne", "lt", "le", "gt", "ge"),
				"value": Num("the number to compare with"),
			}, "col", "cmp", "value")).Max(4).OrNull(),
			"order_by": Arr("order the groups by output columns (ties by group_key); adds column rank", Obj("an order key", map[string]*Schema{
				"col": Str("an output column of this call").NonEmpty(),
				"dir": Enum("asc (default) or desc", "asc", "desc"),
			}, "col")).NonEmpty().Max(3).OrNull(),
			"top":      Int("keep the first top groups of the order (after having)").Range(1, MaxList).OrNull(),
			"as_of_tt": AsOfTT(),
			"limit":    Limit(),
			"cursor":   Cursor(),
		}, "window", "group_by", "aggregates"),
		Result: Paged("one row per non-empty group, in group_key order", aggRowSchema(), map[string]*Schema{
			"prop_coercion": Any("object {prop: number of events whose value did not take part}; present when the call reads a property"),
			"groups_total":  Int("with having or top: the number of groups before they narrowed the result"),
		}),
		Order: "group_key: the dimensions in group_by order; time buckets by start, uids, labels and rel_types by code point, null labels first; " +
			"with order_by: rank",
		Paged: true,
		RowKey: func(row map[string]any) []any {
			if r, ok := row["rank"]; ok {
				return []any{r}
			}
			k, _ := row["group_key"].([]any)
			return k
		},
		Cost: func(c *Call) Cost {
			return c.ScanCost(c.WindowFraction(c.Window("window")))
		},
		Run: runAggregateEvents,
	})
}

func aggRowSchema() *Schema {
	n := func(d string) *Schema { return Num(d).OrNull() }
	i := func(d string) *Schema { return Int(d).OrNull() }
	row := Obj("a group: its dimension columns and aggregate columns (only those the call asked for)", map[string]*Schema{
		"rank":                        Int("with order_by: the row's 1-based position in the order"),
		"group_key":                   Arr("the dimension values in group_by order (the sort and cursor key)", Any("a dimension value")),
		"t_a":                         Int("time_bucket: bucket start (µs, clipped to the window)"),
		"t_b":                         Int("time_bucket: bucket end, exclusive (µs, clipped to the window)"),
		"bucket":                      Str("time_bucket with unit: calendar name of the bucket, e.g. 2024-01-15, 2024-W03, 2024-01, 2024"),
		"src":                         UIDField("endpoint src, or pair directed: source node"),
		"dst":                         UIDField("endpoint dst, or pair directed: destination node"),
		"node":                        UIDField("endpoint either: the endpoint the event is viewed from"),
		"node_a":                      UIDField("pair undirected: the smaller uid"),
		"node_b":                      UIDField("pair undirected: the larger uid"),
		"rel_type":                    Str("relation type"),
		"hour_of_day":                 Int("calendar_cycle hour_of_day: local hour 0..23"),
		"day_of_week":                 Int("calendar_cycle day_of_week: 1 Monday .. 7 Sunday (local)"),
		"day_of_month":                Int("calendar_cycle day_of_month: 1..31 (local)"),
		"month_of_year":               Int("calendar_cycle month_of_year: 1..12 (local)"),
		"src_label":                   Str("label of the source node at the event time").OrNull(),
		"dst_label":                   Str("label of the destination node at the event time").OrNull(),
		"node_label":                  Str("label of the viewed endpoint at the event time").OrNull(),
		"count":                       Int("events in the group"),
		"distinct_src":                Int("distinct source nodes"),
		"distinct_dst":                Int("distinct destination nodes"),
		"distinct_node":               Int("distinct nodes at either endpoint"),
		"distinct_pair":               Int("distinct directed (src, dst) pairs"),
		"sum_duration":                i("sum of durations of closed occurrences (µs)"),
		"mean_duration":               n("mean duration (µs)"),
		"min_duration":                i("shortest duration (µs)"),
		"max_duration":                i("longest duration (µs)"),
		"mean_vt_s":                   n("mean event time (µs)"),
		"min_vt_s":                    i("first event time (µs)"),
		"max_vt_s":                    i("last event time (µs)"),
		"sum_prop":                    n("sum of the numeric property"),
		"mean_prop":                   n("mean of the numeric property"),
		"min_prop":                    n("smallest value of the numeric property"),
		"max_prop":                    n("largest value of the numeric property"),
		"max_gap":                     i("largest gap between consecutive event times (µs)"),
		"first_src":                   UIDField("first: the source of the group's first event").OrNull(),
		"first_dst":                   UIDField("first: the destination of the group's first event").OrNull(),
		"last_src":                    UIDField("last: the source of the group's last event").OrNull(),
		"last_dst":                    UIDField("last: the destination of the group's last event").OrNull(),
		"max_in_window":               Int("most events within any span starting at an event"),
		"replied":                     Int("reply_delay count: events of the group that got a reply"),
		"min_reply_delay":             i("shortest reply delay (µs)"),
		"median_reply_delay":          i("median reply delay, the lower middle value (µs)"),
		"mean_reply_delay":            n("mean reply delay (µs)"),
		"max_reply_delay":             i("longest reply delay (µs)"),
		"max_distinct_src_in_window":  Int("most distinct sources within any span starting at an event"),
		"max_distinct_dst_in_window":  Int("most distinct destinations within any span starting at an event"),
		"max_distinct_node_in_window": Int("most distinct nodes (either endpoint) within any span starting at an event"),
		"max_distinct_pair_in_window": Int("most distinct directed pairs within any span starting at an event"),
		"max_session_span":            i("longest session (last - first event time, µs)"),
	})
	// first_k, last_k: count_first_k, then stat_of_first_k for each source
	for _, which := range []string{"first_k", "last_k"} {
		row.Properties["count_"+which] = Int(which + ": events taken (k, or fewer in a smaller group)")
		for _, st := range []string{"sum", "mean", "min", "max"} {
			for _, of := range []string{"duration", "vt_s", "prop"} {
				if st == "sum" && of == "vt_s" {
					continue
				}
				s := n(which + ": " + st + " of " + of + " over those events")
				if of != "prop" && st != "mean" {
					s = i(which + ": " + st + " of " + of + " over those events (µs)")
				}
				row.Properties[st+"_"+of+"_"+which] = s
			}
		}
	}
	return row
}
