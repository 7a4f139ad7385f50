// Package datasets turns public temporal networks and synthetic streams into
// bulk-ingest events (bitemporal.Event) for the store, its tests and its
// benchmarks.
//
// # SNAP datasets
//
// Three SNAP temporal networks are registered (Names, Lookup):
//
//	name        file                            rel_type  events   nodes  line layout
//	collegemsg  CollegeMsg.txt.gz               MSG        59,835  1,899  SRC DST UNIXTS
//	email-eu    email-Eu-core-temporal.txt.gz   EMAIL     332,334    986  SRC DST SECONDS_FROM_0
//	bitcoinotc  soc-sign-bitcoinotc.csv.gz      TRUST      35,592  5,881  SOURCE,TARGET,RATING,TIME
//
// Every data line becomes one instantaneous event: Src and Dst are "n"
// followed by the decimal node id (so id 7 is "n7", and "007" is also
// "n7"), RelType comes from the Spec, VtS is the time in microseconds
// (whole seconds are multiplied by 1,000,000 in integer arithmetic; a time
// with a decimal fraction t becomes int64(t*1e6), truncated), VtE is 0
// (meaning VtS+1) and Disc is empty, so the store gives every event its own
// edge. Bitcoin-OTC ratings (-10..10) become the edge property
// {"rating": <int>}. email-EU times count seconds from 0 and are kept as
// they are, so its events fall in 1970-1972. Blank lines and lines whose
// first non-blank character is '#' or '%' are skipped; any other line must
// have exactly the expected fields (ids: non-negative integers; time:
// non-negative, below 2^62 µs), or loading fails with a *ParseError naming
// the file and line. Nothing is returned on failure, so a caller never
// ingests part of a file. Events come in file order, which need not be time
// order (email-EU's file is three sorted runs); the store's bulk ingest
// writes them sorted by time, so each node starts at its earliest event.
//
// The files are not part of the repository. Each Spec pins the SHA-256 of
// the file's decompressed content (the same digest for the .gz and a
// decompressed copy). Load checks the pin before it returns anything and
// reports a mismatch as a *ChecksumError that gives both digests and says
// to fetch the file again. Load tells gzip from plain text by the gzip
// magic bytes; for gzip input it decompresses in a second goroutine while
// it parses. Equal uids share one string. Download fetches a Spec's URL
// into a directory (through a temporary file that is renamed into place
// only once it verifies), and Locate finds an existing copy in a list of
// directories; the development checkout keeps the pinned copies in
// ../shared/data relative to the module root.
//
// # Events files
//
// ReadEventsJSONL and WriteEventsJSONL handle a generic events file, one
// JSON object per line:
//
//	{"src":"n1","dst":"n2","rel_type":"MSG","vt_s":1082040961000000}
//	{"disc":"d1","dst":"b","props":{"w":1},"rel_type":"CALL","src":"a","vt_e":"2020-01-02T00:00:00Z","vt_s":"2020-01-01T00:00:00Z"}
//
// src, dst, rel_type and vt_s are required; vt_e, disc and props are
// optional; nothing else is allowed. Times are integer microseconds or
// strings bitemporal.ParseTime accepts. WriteEventsJSONL writes canonical
// JSON (sorted keys, no spaces, integer times), which ReadEventsJSONL reads
// back to the same events.
//
// # Synthetic streams
//
// Synthesize generates a reproducible stream from a SynthConfig, handing it
// over in chunks of SynthChunkSize (50,000) events in non-decreasing vt_s
// order, in memory that does not grow with the stream's length (10M events
// are fine). The random source is splitmix64 with integer-only sampling, so
// a configuration yields the same bytes on every platform.
//
// The background has Events events over [Start, Start+Span). Their times
// are drawn stratum by stratum: the span is cut into equal slices, each
// receives an equal share of the events (4,096 per slice) at uniform random
// times, sorted within the slice. The source node is uniform over
// "n0".."n<Nodes-1>"; the destination is, three times in four, a draw from
// a bounded uniform sample (reservoir) of all earlier endpoints, which
// yields a preferential-attachment degree skew, and otherwise uniform; a
// self loop is redirected to another node. A share IntervalFraction of
// background events are "CALL" interval edges lasting one minute to seven
// days (a random power-of-two multiple of a minute, then uniform within
// it); the rest are instantaneous "MSG" events.
//
// Planted patterns use reserved node names and rel_type "MSG":
//
//   - triangle i: tri{i}_a→tri{i}_b, tri{i}_b→tri{i}_c, tri{i}_c→tri{i}_a at
//     three strictly increasing times inside a window [base, base+Delta);
//   - ping-pong i: pp{i}_a→pp{i}_b, back, and forth again, timed the same way;
//   - burst i: during one day, the 20 nodes burst{i}_0..burst{i}_19 exchange
//     max(10, ⌈8 × the background's events per day⌉) extra events at
//     uniform times, so the group alone runs at BurstFactor (8) times the
//     background rate.
//
// The Manifest records the configuration with defaults filled in (running
// Synthesize on it again gives the same stream), event counts per kind and
// rel_type, the valid-time extent, every pattern (kind, nodes, window, the
// exact events of triangles and ping-pongs with their positions in the
// stream, and for bursts the planted and background counts in the window),
// the corrections, and EventsSHA256: the SHA-256 of the whole stream as
// WriteEventsJSONL writes it. With Corrections > 0, that fraction of the
// emitted events is picked for a later write, listed in
// Manifest.Corrections by event position: mostly edge corrections to
// {"weight":2} over the event's interval, some node corrections of the
// event's source to {"note":"corrected","revised":true} over
// [vt_s+1, vt_s+1+Delta), and, for interval edges, retractions at the
// midpoint. Correction.Op turns one into a write op once the caller knows
// the edge key the store gave the event.
package datasets
