package ops

import (
	"math/rand/v2"
	"testing"
	"time"
)

// aggCycleOf agrees with the standard library's local time at fixed
// offsets, over four centuries on either side of the epoch.
func TestAggCycleOfMatchesTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 20_000 {
		us := rng.Int64N(2*400*365*aggDayUS) - 400*365*aggDayUS
		off := int64(rng.IntN(2881) - 1440)
		lt := time.UnixMicro(us).In(time.FixedZone("", int(off)*60))
		L := us + off*60_000_000
		want := map[string]int64{"hour_of_day": int64(lt.Hour()), "day_of_week": int64((int(lt.Weekday())+6)%7 + 1),
			"day_of_month": int64(lt.Day()), "month_of_year": int64(lt.Month())}
		for cy, w := range want {
			if got := aggCycleOf(cy, L); got != w {
				t.Fatalf("%s of %d at offset %d min: %d, want %d", cy, us, off, got, w)
			}
		}
	}
}
