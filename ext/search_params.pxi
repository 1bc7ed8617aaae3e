# The search's tunable parameters (issue 62 item 4): the margins, depths and divisors of its pruning,
# reductions, extensions and aspiration windows, as one table that SPSA can set between searches
# (set_search_params). The defaults are the values the search was written and measured with.

cdef struct SearchParams:
    int razor_margin            # razoring: static eval + this x depth below alpha at depth <= 2
    int rfp_depth               # reverse futility: up to this depth,
    int rfp_margin              #   static eval - this x (depth - improving) at or above beta cuts
    int nmp_base                # null move: reduction base + depth / divisor + (eval - beta) / eval divisor
    int nmp_depth_divisor
    int nmp_eval_divisor
    int iir_depth               # internal iterative reduction from this depth (PV nodes without a TT move)
    int lmp_depth               # late-move pruning up to this depth, after (base + depth^2) / (2 - improving) quiets
    int lmp_base
    int futility_depth          # futility up to this depth: static eval + base + margin x depth <= alpha
    int futility_base
    int futility_margin
    int history_prune_margin    # a quiet move whose continuation history is below -this x (depth - 1) is pruned
    int see_quiet_quadratic     # a quiet move losing more than quadratic x d^2 + linear x d (d its LMR depth) in exchanges
    int see_quiet_linear
    int see_noisy_depth         # a capture losing more than margin x depth in exchanges, up to this depth
    int see_noisy_margin
    int singular_depth          # singular extensions from this depth, at the TT score - margin x depth
    int singular_margin
    int lmr_base                # LMR's table: base + log(depth) log(moves) / divisor, both in hundredths
    int lmr_divisor
    int lmr_history_divisor     # one ply less reduction for each this much history
    int qsearch_delta           # quiescence delta pruning: a capture cannot lift stand pat + its victim + this above alpha
    int aspiration_delta        # the first aspiration window's half-width, grown by half after each fail

cdef SearchParams SP = SearchParams(
    razor_margin=250, rfp_depth=8, rfp_margin=80, nmp_base=3, nmp_depth_divisor=4, nmp_eval_divisor=200,
    iir_depth=6, lmp_depth=8, lmp_base=3, futility_depth=6, futility_base=100, futility_margin=100,
    history_prune_margin=4096, see_quiet_quadratic=25, see_quiet_linear=15, see_noisy_depth=6,
    see_noisy_margin=100, singular_depth=8, singular_margin=2, lmr_base=75, lmr_divisor=225,
    lmr_history_divisor=8192, qsearch_delta=200, aspiration_delta=25)
cdef dict SEARCH_PARAM_DEFAULTS = SP
# Each value's range: what keeps the search sound -- divisors above 0, a null move that reduces,
# depths within the search's, an aspiration window that grows (by half of itself after a fail:
# from 2 up) -- and the rest not negative.
cdef dict SEARCH_PARAM_LIMITS = {name: (1, 64) if name.endswith("_depth") else
                                 (2, 1 << 20) if name == "aspiration_delta" else
                                 (1, 1 << 20) if name.endswith("_divisor") or name == "nmp_base" else (0, 1 << 20)
                                 for name in SEARCH_PARAM_DEFAULTS}


def search_param_limits():
    """Each parameter's (lowest, highest) value."""
    return dict(SEARCH_PARAM_LIMITS)


def search_param_names():
    """The search's tunable parameters, in table order."""
    return list(SEARCH_PARAM_DEFAULTS)


def default_search_params():
    """Every parameter's default: name -> value."""
    return dict(SEARCH_PARAM_DEFAULTS)


def search_params():
    """The values in use: name -> value."""
    return dict(SP)


def set_search_params(dict values):
    """Change some or all parameters, between searches (a search reads them as it goes); an unknown
    name, a non-integer or a value out of its range raises ValueError before anything changes."""
    global SP
    current = dict(SP)
    for name, value in values.items():
        if name not in SEARCH_PARAM_LIMITS:
            raise ValueError(f"unknown search parameter {name!r}")
        low, high = SEARCH_PARAM_LIMITS[name]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(f"search parameter {name!r} needs an integer within {low}..{high}, not {value!r}")
        current[name] = value
    SP = current
    init_search_tables()
