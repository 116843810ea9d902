package isodate

import (
	"math"
	"testing"
)

// The day numbers are worked by hand: 1970 to 2000 is 30 years with 7
// leap days (1972 to 1996), 10957 days; 1900 to 1970 is 70 years with 17
// (1904 to 1968), 25567 days; 1970 to 2024 is 54 years with 13 (1972 to
// 2020), 19723 days.
func TestParseHandWorkedDays(t *testing.T) {
	for _, c := range []struct {
		s    string
		days float64
	}{
		{"1970-01-01", 0},
		{"1969-12-31", -1},
		{"2000-01-01", 10957},
		{"2000-02-29", 10957 + 31 + 28},
		{"2000-03-01", 10957 + 31 + 29},
		{"1900-01-01", -25567},
		{"1900-02-28", -25567 + 31 + 27},
		{"1900-03-01", -25567 + 31 + 28}, // 1900 is no leap year: the next day
		{"2024-03-17", 19723 + 31 + 29 + 16},
		{" 2024-03-17 ", 19723 + 31 + 29 + 16},
		{"1970-01-01T06:00:00Z", 0.25},
		{"1970-01-01 12:00", 0.5},
		{"1970-01-01T00:00:00.5", 0.5 / 86400},
		{"2024-03-17T00:00:00+02:00", 19799 - 2.0/24}, // 22:00 UTC the day before
		{"2024-03-17T23:30-01:00", 19800 + 0.5/24},    // 00:30 UTC the day after
		{"1969-12-31T18:00:00-06:00", 0},              // midnight UTC
		{"0000-03-01", -719468},                       // the era's start of FromCivil
		{"1600-02-29", -719468 + 1600*365 + 388 - 1},  // 1600 is a leap year: 388 leap days from year 0 to 1599, the day before March 1
	} {
		got, ok := Parse(c.s)
		if !ok || math.Abs(got-c.days) > 1e-9 {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.s, got, ok, c.days)
		}
	}
}

func TestParseRefusesWhatIsNotAnISODate(t *testing.T) {
	for _, s := range []string{
		"", "2024", "2023-02-29", "1900-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-03-00",
		"24-03-17", "2024-3-17", "2024/03/17", "03/04/2024", "17.03.2024", "Mar 17 2024",
		"2024-03-17T24:00", "2024-03-17T10:60", "2024-03-17T10:00:60", "2024-03-17T10", "2024-03-17X10:00",
		"2024-03-17T10:00+2", "2024-03-17T10:00+02:00Z", "2024-03-17T10:00:00.", "2024-03-17T10:00:00.1234567890",
		"2024-03-17Z", "2024-03-17T10:00+24:00", "１２３４-03-17",
	} {
		if days, ok := Parse(s); ok {
			t.Errorf("Parse(%q) = %v, true; want false", s, days)
		}
	}
}

// 2024-03-17 was a Sunday, 2000-01-01 a Saturday, 1900-01-01 a Monday,
// 1969-12-27 a Saturday, 1970-01-01 a Thursday
// and 1969-12-31 a Wednesday.
func TestWeekdayOfKnownDates(t *testing.T) {
	for _, c := range []struct {
		s       string
		weekday int
		month   int
	}{
		{"2024-03-17", 6, 3}, {"2000-01-01", 5, 1}, {"1900-01-01", 0, 1}, {"1969-12-27", 5, 12}, {"1970-01-01", 3, 1}, {"1969-12-31", 2, 12},
		{"1969-12-31T23:59:59Z", 2, 12}, {"2024-03-17T00:00:00+02:00", 5, 3}, // Saturday in UTC
	} {
		days, _ := Parse(c.s)
		if w, m := Weekday(days), Month(days); w != c.weekday || m != c.month {
			t.Errorf("%s: weekday %d, month %d; want %d, %d", c.s, w, m, c.weekday, c.month)
		}
	}
}

func TestLastDay(t *testing.T) {
	if d, _ := Parse("9999-12-31"); d != lastDay {
		t.Errorf("9999-12-31 is day %v, lastDay %d", d, lastDay)
	}
}

func TestCivilRoundTrip(t *testing.T) {
	for days := -800000; days <= 800000; days += 37 {
		y, m, d := ToCivil(days)
		if m < 1 || m > 12 || d < 1 || d > monthDays(y, m) || FromCivil(y, m, d) != days {
			t.Fatalf("day %d: %d-%d-%d, back %d", days, y, m, d, FromCivil(y, m, d))
		}
	}
}

func TestFormatReadsBack(t *testing.T) {
	for _, c := range []struct {
		days float64
		want string
	}{
		{0, "1970-01-01"}, {-1, "1969-12-31"}, {19799, "2024-03-17"}, {0.25, "1970-01-01T06:00:00Z"},
		{-0.5, "1969-12-31T12:00:00Z"}, {19799 + 1.5/86400, "2024-03-17T00:00:01.500Z"},
		{lastDay + 1 - 0.0004/86400, "9999-12-31T23:59:59.999Z"}, // not year 10000: within a millisecond
		{-719528, "0000-01-01"},
	} {
		s := Format(c.days)
		back, ok := Parse(s)
		// Format rounds to the millisecond: back is within half of one,
		// or one at the end of year 9999.
		if s != c.want || !ok || math.Abs(back-c.days)*86400 > 0.0005 && !(c.days > lastDay && math.Abs(back-c.days)*86400 < 0.001) {
			t.Errorf("Format(%v) = %q, back %v, %v; want %q", c.days, s, back, ok, c.want)
		}
	}
}

func TestAmbiguousDates(t *testing.T) {
	for s, want := range map[string]bool{
		"03/04/2024": true, "17.03.2024": true, "3-4-24": true, "2024/03/17": true, "1/2/2024 10:00": true,
		"2024-3-17": false, "2024-02-30": false, "03/04/2024/1": false, "03/04-2024": false, "1.5": false, "1,234.5": false,
		"12/2024": false, "abc": false, "": false, "123/4/2024": false, "1.2.3": false,
	} {
		if got := Ambiguous(s); got != want {
			t.Errorf("Ambiguous(%q) = %v, want %v", s, got, want)
		}
	}
}
