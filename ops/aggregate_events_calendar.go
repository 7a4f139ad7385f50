package ops

import "fmt"

// --- calendar arithmetic (proleptic Gregorian, days since 1970-01-01) ----

func aggFloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func aggDaysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := aggFloorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

func aggCivilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := aggFloorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return
}

// aggCalIndex numbers the calendar bucket holding local time L.
func aggCalIndex(unit string, L int64) int64 {
	days := aggFloorDiv(L, aggDayUS)
	switch unit {
	case "day":
		return days
	case "week":
		return aggFloorDiv(days+3, 7) // weeks from Monday 1969-12-29
	case "month":
		y, m, _ := aggCivilFromDays(days)
		return y*12 + m - 1
	}
	y, _, _ := aggCivilFromDays(days)
	return y
}

// aggCalBucket returns the local-day bounds [sd, ed) of the bucket holding
// local time L.
func aggCalBucket(unit string, L int64) (sd, ed int64) {
	days := aggFloorDiv(L, aggDayUS)
	switch unit {
	case "day":
		return days, days + 1
	case "week":
		sd = aggFloorDiv(days+3, 7)*7 - 3
		return sd, sd + 7
	case "month":
		y, m, _ := aggCivilFromDays(days)
		sd = aggDaysFromCivil(y, m, 1)
		if m == 12 {
			return sd, aggDaysFromCivil(y+1, 1, 1)
		}
		return sd, aggDaysFromCivil(y, m+1, 1)
	}
	y, _, _ := aggCivilFromDays(days)
	return aggDaysFromCivil(y, 1, 1), aggDaysFromCivil(y+1, 1, 1)
}

// aggCalName names the bucket starting at local day sd.
func aggCalName(unit string, sd int64) string {
	y, m, d := aggCivilFromDays(sd)
	switch unit {
	case "day":
		return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
	case "week":
		th := sd + 3 // the ISO week-year is the year of the week's Thursday
		ty, _, _ := aggCivilFromDays(th)
		return fmt.Sprintf("%04d-W%02d", ty, (th-aggDaysFromCivil(ty, 1, 1))/7+1)
	case "month":
		return fmt.Sprintf("%04d-%02d", y, m)
	}
	return fmt.Sprintf("%04d", y)
}

// aggCalFromIndex returns the local-day bounds of calendar bucket idx.
func aggCalFromIndex(unit string, idx int64) (sd, ed int64) {
	switch unit {
	case "day":
		return idx, idx + 1
	case "week":
		return idx*7 - 3, idx*7 + 4
	case "month":
		y, m := aggFloorDiv(idx, 12), idx-aggFloorDiv(idx, 12)*12+1
		sd = aggDaysFromCivil(y, m, 1)
		if m == 12 {
			return sd, aggDaysFromCivil(y+1, 1, 1)
		}
		return sd, aggDaysFromCivil(y, m+1, 1)
	}
	return aggDaysFromCivil(idx, 1, 1), aggDaysFromCivil(idx+1, 1, 1)
}

// aggCycleOf is the position of local time L in a calendar cycle:
// hour_of_day 0..23, day_of_week 1 (Monday)..7 (ISO), day_of_month 1..31,
// month_of_year 1..12.
func aggCycleOf(cycle string, L int64) int64 {
	days := aggFloorDiv(L, aggDayUS)
	switch cycle {
	case "hour_of_day":
		return aggFloorDiv(L, aggDayUS/24) - days*24
	case "day_of_week":
		return (days + 3) - aggFloorDiv(days+3, 7)*7 + 1 // 1970-01-01 was a Thursday
	case "day_of_month":
		_, _, d := aggCivilFromDays(days)
		return d
	}
	_, m, _ := aggCivilFromDays(days)
	return m
}
