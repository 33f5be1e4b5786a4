package intlgen

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// writeZones writes every zone of the tz zip's TZif files one after
// another to path and answers where each lies ("OFFSET LENGTH" by
// name): the engine loads one zone from there without reading the
// zip's directory of six hundred entries.
func writeZones(path, zipPath string) (map[string]any, error) {
	z, err := zip.OpenReader(zipPath)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	var all []byte
	where := map[string]any{}
	for _, f := range z.File {
		if f.FileInfo().IsDir() {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		where[f.Name] = fmt.Sprintf("%d %d", len(all), len(b))
		all = append(all, b...)
	}
	return where, os.WriteFile(path, all, 0o644)
}

// calendarPrefsOf maps each region to its preferred calendars, as
// BCP 47 names them ("gregorian" is "gregory"), space-separated.
func calendarPrefsOf(prefs any) map[string]any {
	bcp := strings.NewReplacer("gregorian", "gregory", "ethiopic-amete-alem", "ethioaa")
	out := map[string]any{}
	for region, list := range obj(prefs) {
		var names []string
		for _, c := range list.([]any) {
			names = append(names, bcp.Replace(str(c)))
		}
		out[region] = strings.Join(names, " ")
	}
	return out
}

// weekInfoOf is Intl.Locale's weekInfo for every region CLDR's week
// data names (and 001, the default): the first day and the weekend's
// days as numbers (Monday 1 to Sunday 7), the minimal days of a first
// week.
func weekInfoOf(week any) map[string]any {
	w := obj(week)
	day := map[string]int{"mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 7}
	regions := map[string]bool{}
	for _, table := range []string{"firstDay", "minDays", "weekendStart", "weekendEnd"} {
		for r := range obj(w[table]) {
			if !strings.Contains(r, "-") {
				regions[r] = true
			}
		}
	}
	get := func(table, region string) string {
		if v := str(obj(w[table])[region]); v != "" {
			return v
		}
		return str(obj(w[table])["001"])
	}
	out := map[string]any{}
	for r := range regions {
		start, end := day[get("weekendStart", r)], day[get("weekendEnd", r)]
		weekend := []int{start}
		for d := start; d != end; {
			d = d%7 + 1
			weekend = append(weekend, d)
		}
		minDays, _ := strconv.Atoi(get("minDays", r))
		// In the order Node's weekInfo has its properties.
		out[r] = struct {
			FirstDay    int   `json:"firstDay"`
			Weekend     []int `json:"weekend"`
			MinimalDays int   `json:"minimalDays"`
		}{day[get("firstDay", r)], weekend, minDays}
	}
	return out
}

// keyRegions are the BCP 47 zone keys that do not begin with their
// zone's region code.
var keyRegions = map[string]string{"gazastrp": "PS", "hebron": "PS", "jeruslm": "IL"}

// regionZonesOf lists each region's IANA zones by their canonical
// names, sorted, space-separated: a BCP 47 zone key begins with its
// region's code ("usnyc", "debsngn") but for keyRegions; the keys of no
// region (utc, gmt, unk, the Etc/ offsets) are left out.
func regionZonesOf(tz any) map[string]any {
	zones := map[string][]string{}
	for id, v := range obj(tz) {
		aliases := strings.Fields(str(obj(v)["_alias"]))
		if len(id) < 5 || len(aliases) == 0 || obj(v)["_deprecated"] != nil || strings.HasPrefix(aliases[0], "Etc/") {
			continue
		}
		region := strings.ToUpper(id[:2])
		if r, ok := keyRegions[id]; ok {
			region = r
		}
		zones[region] = append(zones[region], aliases[0])
	}
	out := map[string]any{}
	for r, list := range zones {
		sort.Strings(list)
		out[r] = strings.Join(list, " ")
	}
	return out
}
