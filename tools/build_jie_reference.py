#!/usr/bin/env python3
"""Build ``tests/data/jie_reference.csv``: an independent table of the 12 节 (jie).

For every Gregorian year 1900-2050 inclusive this script finds the instants (UTC)
at which the Sun's *apparent geocentric ecliptic longitude of date* reaches

    285° 小寒, 315° 立春, 345° 惊蛰, 15° 清明, 45° 立夏, 75° 芒种,
    105° 小暑, 135° 立秋, 165° 白露, 195° 寒露, 225° 立冬, 255° 大雪

and writes them as ``year,name,longitude,utc`` rows, ``utc`` being ISO 8601
rounded to the nearest whole second with a ``Z`` suffix.

It is deliberately independent of the yimao package and of tyme4py: the only
astronomy comes from PyEphem (``pip install ephem``); everything else is plain
arithmetic. It is run by hand (``python tools/build_jie_reference.py``) and the
CSV it writes is committed; the tests never import ephem.

How the apparent longitude is obtained from PyEphem
---------------------------------------------------
``ephem.Sun(date)`` exposes three positions (see libastro ``circum.c``):

* ``a_ra/a_dec`` -- *astrometric*: mean equator/equinox, precessed to the body's
  ``a_epoch`` (J2000 by default), with NO nutation and NO aberration;
* ``g_ra/g_dec`` -- *apparent geocentric*, true equator and equinox of date:
  libastro's VSOP87 geometric longitude (mean ecliptic of date) converted to the
  equator with the mean obliquity, then corrected for nutation (``nut_eq``) and
  annual aberration (``ab_eq``);
* ``ra/dec`` -- topocentric apparent if computed for an Observer.

Pitfall: ``ephem.Ecliptic(sun, epoch=d)`` converts the *astrometric* ``a_ra/a_dec``
(the Coordinate constructor takes ``a_ra/a_dec`` from a Body), so it lacks the
-20.5" aberration and the nutation in longitude; the instants it gives are about
10 minutes early (e.g. 2024 立春 08:17:07Z instead of 08:26:56Z). This script
therefore builds ``Equatorial(sun.g_ra, sun.g_dec, epoch=d)`` and converts it
with ``Ecliptic(..., epoch=d)``.  That conversion rotates with the *mean*
obliquity while ``g_ra/g_dec`` refer to the *true* equator; for a body on the
ecliptic the resulting error in longitude is second order in the nutation in
obliquity (< 0.001"), so it is negligible.

Time scale
----------
An ``ephem.Date`` is Universal Time (UT, taken as UTC here; |UT1-UTC| < 0.9 s).
PyEphem adds ΔT (``ephem.delta_t``) internally to evaluate the ephemeris in TT,
so the roots found are UT instants directly.  PyEphem's ΔT follows the
historical tables up to about 2000 (1900: -2.7 s, 1920: 21 s, 1950: 29 s,
1980: 51 s, 2000: 64 s) and then extrapolates: 2020: 70.0 s (observed 69.4 s),
2024: 72.6 s (observed ~69.2 s), 2030: 78 s, 2040: 91 s, 2050: 109 s.

Accuracy
--------
* root finding: Newton iteration until the step is < 1 ms; rows are rounded to
  the nearest second (so the table is within 0.5 s of ephem's own solution);
* position: libastro's VSOP87 Sun agrees with published instants to a few
  seconds once ΔT is accounted for (see ``--check``);
* ΔT: 1900-2000 the instants should be good to ~1-2 s (ΔT before 1950 is known
  to about a second); 2000-2025 ephem's ΔT is up to ~3.5 s too large, so the
  instants are up to ~3.5 s late; after 2025 ΔT is a prediction and different
  calendars' predictions diverge (by 2050 the spread is 20-35 s), so agreement
  with another implementation can be no better than that.

Verification (``--check``) against published instants
-----------------------------------------------------
    2024 立春      16:26:53 CST  (2024-02-04T08:26:53Z)    this table: 08:26:56Z (+3 s)
    2023 立春      10:42:21 CST  (2023-02-04T02:42:21Z)    this table: +2 s
    2025 立春      22:10:13 CST  (2025-02-03T14:10:13Z)    this table: +2 s
    2024 March equinox  2024-03-20 03:06 UTC (USNO, minute)  ephem: 03:06:18Z
    2000 March equinox  2000-03-20 07:35 UTC (USNO, minute)  ephem: 07:35:14Z
    2024 June solstice  2024-06-20 20:51 UTC (USNO, minute)  ephem: 20:51:03Z
    2024 冬至     17:20:20 CST  (2024-12-21T09:20:20Z)     ephem: 09:20:21Z (+1 s)
The residual of +2..3 s in 2023-2025 is exactly ephem's ΔT excess over the
observed value (72.6 s vs 69.2 s in 2024).
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import ephem

FIRST_YEAR = 1900
LAST_YEAR = 2050

#: The 12 节 in chronological order within a Gregorian year.
JIE = (
    ("小寒", 285),
    ("立春", 315),
    ("惊蛰", 345),
    ("清明", 15),
    ("立夏", 45),
    ("芒种", 75),
    ("小暑", 105),
    ("立秋", 135),
    ("白露", 165),
    ("寒露", 195),
    ("立冬", 225),
    ("大雪", 255),
)

#: ephem.Date counts days from 1899-12-31 12:00 UT (the "Dublin Julian Day").
_EPHEM_EPOCH = datetime(1899, 12, 31, 12, 0, 0, tzinfo=UTC)

_TROPICAL_YEAR = 365.2422
_SECOND = 1.0 / 86400.0

#: Published instants used by --check: (label, target longitude, UTC, precision note).
PUBLISHED = (
    ("2024 立春 16:26:53 CST", 315, datetime(2024, 2, 4, 8, 26, 53, tzinfo=UTC)),
    ("2023 立春 10:42:21 CST", 315, datetime(2023, 2, 4, 2, 42, 21, tzinfo=UTC)),
    ("2025 立春 22:10:13 CST", 315, datetime(2025, 2, 3, 14, 10, 13, tzinfo=UTC)),
    ("2024 March equinox 03:06 UTC (minute)", 0, datetime(2024, 3, 20, 3, 6, tzinfo=UTC)),
    ("2000 March equinox 07:35 UTC (minute)", 0, datetime(2000, 3, 20, 7, 35, tzinfo=UTC)),
    ("2024 June solstice 20:51 UTC (minute)", 90, datetime(2024, 6, 20, 20, 51, tzinfo=UTC)),
    ("2024 冬至 17:20:20 CST", 270, datetime(2024, 12, 21, 9, 20, 20, tzinfo=UTC)),
)


def apparent_longitude(d: float) -> float:
    """Apparent geocentric ecliptic longitude of the Sun, of date, in degrees.

    ``d`` is an ephem date (float days since 1899-12-31 12:00 UT).
    """
    date = ephem.Date(d)
    sun = ephem.Sun(date)
    true_eq = ephem.Equatorial(sun.g_ra, sun.g_dec, epoch=date)
    ecl = ephem.Ecliptic(true_eq, epoch=date)
    return math.degrees(float(ecl.lon)) % 360.0


def astrometric_longitude(d: float) -> float:
    """The *wrong* convention (``Ecliptic(sun, epoch=d)``), kept for --check."""
    date = ephem.Date(d)
    sun = ephem.Sun(date)
    return math.degrees(float(ephem.Ecliptic(sun, epoch=date).lon)) % 360.0


def _signed_diff(lon: float, target: float) -> float:
    """lon - target wrapped into [-180, 180) degrees."""
    return (lon - target + 180.0) % 360.0 - 180.0


def solve_longitude(target: float, guess: float, func=apparent_longitude) -> float:
    """Ephem date at which ``func`` reaches ``target`` degrees, near ``guess``.

    Newton iteration with a numerical derivative (the Sun moves ~1°/day and
    never backwards); stops once the step is below 1 ms.
    """
    d = guess
    for _ in range(50):
        f0 = _signed_diff(func(d), target)
        h = 0.01  # days
        rate = _signed_diff(func(d + h), func(d)) / h  # degrees per day
        step = -f0 / rate
        d += step
        if abs(step) < 1e-3 * _SECOND:
            return d
    raise RuntimeError(f"no convergence for longitude {target} near {ephem.Date(guess)}")


def initial_guess(year: int, longitude: float) -> float:
    """Rough ephem date at which the Sun reaches ``longitude`` in ``year``."""
    equinox_year = year - 1 if longitude >= 270 else year
    march_equinox = ephem.Date(f"{equinox_year}/3/20 12:00")
    return float(march_equinox) + (longitude % 360.0) / 360.0 * _TROPICAL_YEAR


def ephem_to_utc(d: float) -> datetime:
    """Convert an ephem date to an aware UTC datetime rounded to whole seconds."""
    seconds = round(d * 86400.0)
    return _EPHEM_EPOCH + timedelta(seconds=seconds)


def utc_to_ephem(moment: datetime) -> float:
    return (moment - _EPHEM_EPOCH).total_seconds() / 86400.0


def compute_rows(first: int = FIRST_YEAR, last: int = LAST_YEAR):
    rows = []
    for year in range(first, last + 1):
        for name, lon in JIE:
            d = solve_longitude(lon, initial_guess(year, lon))
            utc = ephem_to_utc(d)
            if utc.year != year:
                raise AssertionError(f"{name} {year} fell in {utc.year}")
            rows.append((year, name, lon, utc))
    return rows


def write_csv(rows, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(("year", "name", "longitude", "utc"))
        for year, name, lon, utc in rows:
            writer.writerow((year, name, lon, utc.strftime("%Y-%m-%dT%H:%M:%SZ")))


def check() -> int:
    """Print our solution against the published instants in PUBLISHED."""
    print(f"{'instant':40s} {'published':>20s} {'apparent (used)':>22s} {'Δs':>6s} {'astrometric (wrong)':>22s} {'Δs':>6s}")
    for label, lon, published in PUBLISHED:
        guess = utc_to_ephem(published)
        good = solve_longitude(lon, guess, apparent_longitude)
        bad = solve_longitude(lon, guess, astrometric_longitude)
        gd = (good - guess) * 86400.0
        bd = (bad - guess) * 86400.0
        print(
            f"{label:40s} {published:%Y-%m-%d %H:%M:%S}  "
            f"{ephem_to_utc(good):%Y-%m-%d %H:%M:%S} {gd:+6.1f}  "
            f"{ephem_to_utc(bad):%Y-%m-%d %H:%M:%S} {bd:+6.1f}"
        )
    for y in (1900, 1950, 2000, 2024, 2050):
        print(f"ephem ΔT {y}: {ephem.delta_t(ephem.Date(f'{y}/7/1')):.1f} s")
    return 0


def main(argv=None) -> int:
    repo = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=repo / "tests" / "data" / "jie_reference.csv")
    parser.add_argument("--check", action="store_true", help="compare against published instants instead of writing the CSV")
    args = parser.parse_args(argv)
    if args.check:
        return check()
    rows = compute_rows()
    write_csv(rows, args.output)
    print(f"wrote {len(rows)} rows to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
