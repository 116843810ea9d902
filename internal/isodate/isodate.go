// Package isodate reads and writes the dates of a table's columns: ISO
// 8601 dates (2024-03-17) and date-times (2024-03-17T06:30:00Z,
// 2024-03-17 06:30), as a number of days since 1970-01-01 00:00 UTC, the
// number a model takes them as. It also tells the dates that are not
// ISO and whose order of day and month a reader would have to guess
// (03/04/2024, 17.03.2024), so that they can be refused rather than read
// wrongly.
package isodate

import (
	"math"
	"strconv"
	"strings"
)

// lastDay is 9999-12-31, the last day of 4-digit years.
const lastDay = 2932896

// secondsPerDay is the length of a day in seconds; a date-time's time
// of day is a fraction of it (leap seconds are not written).
const secondsPerDay = 86400

// Parse returns the days since 1970-01-01 00:00 UTC of s, spaces trimmed,
// and whether s is an ISO date: YYYY-MM-DD, optionally followed by 'T' or
// one space and HH:MM, then optionally :SS and a fraction of a second of
// 1 to 9 digits, then optionally 'Z' or a UTC offset ±HH:MM. A date-time
// without an offset is taken as UTC. The days are whole for a date and
// fractional for a date-time; days before 1970 are negative. Each field
// must be in range (a month's day by the proleptic Gregorian calendar,
// hours below 24, minutes and seconds below 60).
func Parse(s string) (days float64, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	y, okY := num(s[0:4])
	m, okM := num(s[5:7])
	d, okD := num(s[8:10])
	if !okY || !okM || !okD || m < 1 || m > 12 || d < 1 || d > monthDays(y, m) {
		return 0, false
	}
	day := float64(FromCivil(y, m, d))
	s = s[10:]
	if s == "" {
		return day, true
	}
	sec, ok := parseTime(s)
	if !ok {
		return 0, false
	}
	return day + sec/secondsPerDay, true
}

// parseTime returns the seconds since midnight UTC of the time part of a
// date-time, s starting with its 'T' or space.
func parseTime(s string) (float64, bool) {
	if len(s) < 6 || s[0] != 'T' && s[0] != ' ' {
		return 0, false
	}
	minutes, ok := clock(s[1:6])
	if !ok {
		return 0, false
	}
	sec := float64(60 * minutes)
	s = s[6:]
	if len(s) >= 3 && s[0] == ':' {
		ss, ok := num(s[1:3])
		if !ok || ss > 59 {
			return 0, false
		}
		sec += float64(ss)
		s = s[3:]
		if len(s) >= 2 && s[0] == '.' {
			n := digits(s[1:])
			if n < 1 || n > 9 {
				return 0, false
			}
			frac, _ := strconv.ParseFloat("0"+s[:n+1], 64)
			sec += frac
			s = s[n+1:]
		}
	}
	switch {
	case s == "" || s == "Z":
		return sec, true
	case len(s) != 6 || s[0] != '+' && s[0] != '-':
		return 0, false
	}
	offset, ok := clock(s[1:])
	if !ok {
		return 0, false
	}
	if s[0] == '-' {
		offset = -offset
	}
	// Local time is UTC plus the offset.
	return sec - float64(60*offset), true
}

// clock returns the minutes since midnight that s, "HH:MM", writes, and
// false unless s is that with hours below 24 and minutes below 60.
func clock(s string) (int, bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	h, okH := num(s[0:2])
	m, okM := num(s[3:5])
	return 60*h + m, okH && okM && h <= 23 && m <= 59
}

// num returns the number the ASCII digits s write, and false if s holds
// anything else.
func num(s string) (int, bool) {
	if digits(s) != len(s) {
		return 0, false
	}
	n := 0
	for i := range len(s) {
		n = 10*n + int(s[i]-'0')
	}
	return n, true
}

// digits returns the number of ASCII digits s starts with.
func digits(s string) int {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return i
		}
	}
	return len(s)
}

// leap reports whether y is a leap year of the Gregorian calendar.
func leap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// monthDays returns the number of days of month m of year y.
func monthDays(y, m int) int {
	switch m {
	case 2:
		if leap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// FromCivil returns the days since 1970-01-01 of the date y-m-d of the
// proleptic Gregorian calendar, m in 1..12 and d in 1..31: the days of
// the whole 400-year eras since year 0, of the years of the era, and of
// the months of the year counted from March, so that February's leap
// day ends the year.
func FromCivil(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400 // [0, 399]
	mp := (m + 9) % 12 // March is 0
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// ToCivil returns the date y-m-d of the day days since 1970-01-01, the
// inverse of FromCivil.
func ToCivil(days int) (y, m, d int) {
	z := days + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// floorDiv returns a/b rounded down, b > 0.
func floorDiv[I int | int64](a, b I) I {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// Weekday returns the day of the week of the instant days (UTC), 0 for
// Monday to 6 for Sunday; 1970-01-01 was a Thursday.
func Weekday(days float64) int {
	w := math.Mod(math.Floor(days)+3, 7)
	if w < 0 {
		w += 7
	}
	return int(w)
}

// Month returns the month, 1 to 12, of the instant days (UTC).
func Month(days float64) int {
	_, m, _ := ToCivil(int(math.Floor(days)))
	return m
}

// Format returns the ISO text of the instant days: YYYY-MM-DD for a
// whole day, else the date-time in UTC to the millisecond,
// YYYY-MM-DDTHH:MM:SS[.fff]Z, which Parse reads back to within half a
// millisecond (a millisecond in the last one of year 9999), for any days
// Parse returns.
func Format(days float64) string {
	ms := int64(math.Round(days * secondsPerDay * 1000))
	// The last millisecond of 9999 does not round into year 10000,
	// which has no ISO text of 4 digits.
	ms = min(ms, (lastDay+1)*secondsPerDay*1000-1)
	day := floorDiv(ms, secondsPerDay*1000)
	y, m, d := ToCivil(int(day))
	b := make([]byte, 0, 24)
	b = pad(b, y, 4)
	b = pad(append(b, '-'), m, 2)
	b = pad(append(b, '-'), d, 2)
	rest := ms - day*secondsPerDay*1000
	if rest == 0 {
		return string(b)
	}
	b = pad(append(b, 'T'), int(rest/3600000), 2)
	b = pad(append(b, ':'), int(rest/60000%60), 2)
	b = pad(append(b, ':'), int(rest/1000%60), 2)
	if f := int(rest % 1000); f != 0 {
		b = pad(append(b, '.'), f, 3)
	}
	return string(append(b, 'Z'))
}

// pad appends n, at least 0, in at least width digits, zeros leading.
func pad(b []byte, n, width int) []byte {
	s := strconv.Itoa(n)
	for range width - len(s) {
		b = append(b, '0')
	}
	return append(b, s...)
}

// Ambiguous reports whether s, spaces trimmed, is written like a date that
// is not ISO: three groups of digits separated by '/', '.' or '-' (the
// same twice), a year of 2 or 4 digits first or last and the other two of
// 1 or 2 digits (03/04/2024, 17.03.2024, 3-4-24, 2024/03/17; but not
// 2024-3-17 nor 2024-02-30, in ISO's order, which is no guess), optionally
// followed by a space or 'T' and a time. Whether 03/04 is the 3rd of
// April or March the 4th, the text does not say.
func Ambiguous(s string) bool {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " T"); i >= 0 {
		s = s[:i]
	}
	var groups []int
	sep := byte(0)
	for {
		n := digits(s)
		if n == 0 {
			return false
		}
		groups = append(groups, n)
		s = s[n:]
		if s == "" || len(groups) == 3 {
			break
		}
		if s[0] != '/' && s[0] != '.' && s[0] != '-' || sep != 0 && s[0] != sep {
			return false
		}
		sep, s = s[0], s[1:]
	}
	if s != "" || len(groups) != 3 {
		return false
	}
	short := func(n int) bool { return n == 1 || n == 2 }
	year := func(n int) bool { return n == 2 || n == 4 }
	return year(groups[2]) && short(groups[0]) && short(groups[1]) ||
		groups[0] == 4 && short(groups[1]) && short(groups[2]) && sep != '-'
}
