#pragma once
// The chart of a design sweep: GPUs against facility power (MW), one line per combination
// of the values of every swept parameter but the first (cpo=false and cpo=true in
// -D su=1..18 -D cpo=false,true), failing points left out. fabc sweep writes it as
// sweep.svg; the report draws it when the build is given the sweep (--sweep FILE).
#include "analysis/OutputPlans.h"

#include <string>

namespace fabc {

std::string sweepChartSvg(const SweepTable &t);

} // namespace fabc
