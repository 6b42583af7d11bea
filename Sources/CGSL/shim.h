// A small view of the GNU Scientific Library for Swift.
//
// Swift 6 cannot import GSL's global variables (e.g. gsl_rng_mt19937) safely, so they
// are exposed through static inline accessor functions.
#ifndef CACHELAB_CGSL_SHIM_H
#define CACHELAB_CGSL_SHIM_H

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/// The Mersenne Twister generator type (MT19937).
static inline const gsl_rng_type *cachelab_gsl_rng_mt19937(void) { return gsl_rng_mt19937; }

#endif
