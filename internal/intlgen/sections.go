package intlgen

import "strings"

// dates is a locale's Gregorian calendar and time zone names.
func (g *gen) dates(cldr string) (map[string]any, error) {
	greg, err := g.read("cldr-dates-full", "main/"+cldr+"/ca-gregorian.json", "main", cldr, "dates", "calendars", "gregorian")
	if err != nil {
		return nil, err
	}
	zones, err := g.read("cldr-dates-full", "main/"+cldr+"/timeZoneNames.json", "main", cldr, "dates", "timeZoneNames")
	if err != nil {
		return nil, err
	}
	c := obj(greg)
	z := obj(zones)
	// Per-zone names: only UTC's are used (the rest go by metazone).
	if etc := obj(obj(z["zone"])["Etc"]); etc != nil {
		z["utc"] = obj(etc["UTC"])
	}
	delete(z, "zone")
	dtf := obj(c["dateTimeFormats"])
	glue := map[string]any{"availableFormats": dtf["availableFormats"], "atTime": c["dateTimeFormats-atTime"], "intervalFormats": dtf["intervalFormats"]}
	for _, w := range []string{"full", "long", "medium", "short"} {
		glue[w] = dtf[w]
	}
	return map[string]any{
		"months":          c["months"],
		"days":            c["days"],
		"dayPeriods":      c["dayPeriods"],
		"eras":            c["eras"],
		"dateFormats":     c["dateFormats"],
		"timeFormats":     c["timeFormats"],
		"dateTimeFormats": glue,
		"timeZoneNames":   z,
	}, nil
}

// names is a locale's display names: languages, regions, scripts, the
// locale pattern, calendars and date fields (DisplayNames).
func (g *gen) names(cldr string, fields map[string]any) (map[string]any, error) {
	out := map[string]any{}
	for _, f := range []struct{ file, key string }{{"languages", "languages"}, {"territories", "territories"}, {"scripts", "scripts"}} {
		v, err := g.read("cldr-localenames-full", "main/"+cldr+"/"+f.file+".json", "main", cldr, "localeDisplayNames", f.key)
		if err != nil {
			return nil, err
		}
		out[f.key] = v
	}
	ldn, err := g.read("cldr-localenames-full", "main/"+cldr+"/localeDisplayNames.json", "main", cldr, "localeDisplayNames")
	if err != nil {
		return nil, err
	}
	out["pattern"] = obj(ldn)["localeDisplayPattern"]
	out["calendars"] = obj(obj(ldn)["types"])["calendar"]
	dateFields := map[string]any{}
	for k, v := range fields {
		if name := str(obj(v)["displayName"]); name != "" {
			dateFields[k] = name
		}
	}
	out["dateFields"] = dateFields
	return out, nil
}

// sanctionedUnits are ECMA-402's simple units (IsSanctionedSingleUnitIdentifier).
var sanctionedUnits = strings.Fields(`acre bit byte celsius centimeter day degree fahrenheit fluid-ounce foot gallon
	gigabit gigabyte gram hectare hour inch kilobit kilobyte kilogram kilometer liter megabit megabyte meter
	microsecond mile mile-scandinavian milliliter millimeter millisecond minute month nanosecond ounce percent
	petabyte pound second stone terabit terabyte week yard year`)

// units is a locale's unit patterns for NumberFormat's unit style, by
// width ("long", "short", "narrow") and unit: the sanctioned units and
// CLDR's own compounds of two of them ("kilometer-per-hour"), and
// "per", the compound pattern.
func (g *gen) units(cldr string) (map[string]any, error) {
	all, err := g.read("cldr-units-full", "main/"+cldr+"/units.json", "main", cldr, "units")
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, u := range sanctionedUnits {
		want[u] = true
	}
	out := map[string]any{}
	for _, width := range []string{"long", "short", "narrow"} {
		m := map[string]any{}
		for key, v := range obj(obj(all)[width]) {
			if key == "per" {
				m["per"] = obj(v)["compoundUnitPattern"]
				continue
			}
			_, unit, ok := strings.Cut(key, "-")
			if !ok {
				continue
			}
			num, den, compound := strings.Cut(unit, "-per-")
			if want[unit] || compound && want[num] && want[den] {
				m[unit] = v
			}
		}
		out[width] = m
	}
	return out, nil
}
