# Week 4: stragglers drawn per round from a list beside the same list as fixed per-worker speeds, and what
# SSP can absorb in each (ssp_clock_limits). Free network (α = 0, β = 1e-30): compute alone. Included from
# CMakeLists.txt inside the test block.
#
# Per round from [1,1,1,1,3,5]: E[max of 6] = 1 + 2·(1 − (4/6)^6) + 2·(1 − (5/6)^6) = 4.15462…, the mean 2, so a bound
# can absorb 1 − 2/4.15462… = 51.86% of the barrier's clock; --round-speeds alone selects the per-round model.
dsml_cli_test(cli_ps_per_round 0 ARGS ps --regime bsp --workers 6 --iterations 10 --round-speeds 1,1,1,1,3,5
  --parameters 8 --alpha 0 --beta 1e-30
  STDOUT "\"closed_form_round_compute_s\": 4\\.15462105624142[0-9]*, ")
# What SSP can absorb is printed for SSP runs only: the barrier's E[max] against the slowest mean.
dsml_cli_test(cli_ps_per_round_ssp_limits 0 ARGS ps --regime ssp --staleness 2 --workers 6 --iterations 10
  --round-speeds 1,1,1,1,3,5 --parameters 8 --alpha 0 --beta 1e-30
  STDOUT "\"ssp_clock_limits\": {\"barrier_seconds\": 4\\.15462105624142[0-9]*, \"unbounded_seconds\": 2, \"absorbable_seconds\": 2\\.15462105624142[0-9]*, \"absorbable_fraction\": 0\\.5186[0-9]*}")
dsml_cli_test(cli_ps_bsp_no_ssp_limits 0 ARGS ps --regime bsp --workers 6 --iterations 10 --round-speeds 1,1,1,1,3,5
  --parameters 8 --alpha 0 --beta 1e-30 STDOUT "\"closed_form_push_round\"" STDOUT_LACKS "ssp_clock_limits")
dsml_cli_test(cli_ps_backup_echoed 0 ARGS ps --regime backup --backup 2 --cancel-stragglers --workers 6 --iterations 5
  --parameters 8 --alpha 0 --beta 1e-30 STDOUT "\"workers\": 6, \"servers\": [0-9]+, \"backup\": 2, \"cancel_stragglers\": true,")
# The same list as fixed speeds (worker w always list[w]): both limits are the slow worker's 5 s and SSP(16) still
# finishes 40 clocks at 40·5 = 200 s — a permanently slow worker cannot be absorbed.
dsml_cli_test(cli_ps_fixed_not_absorbed 0 ARGS ps --regime ssp --staleness 16 --workers 6 --iterations 40
  --speed fixed --speeds 1,1,1,1,3,5 --parameters 8 --alpha 0 --beta 1e-30
  STDOUT "\"makespan\": 200, .*\"ssp_clock_limits\": {\"barrier_seconds\": 5, \"unbounded_seconds\": 5, \"absorbable_seconds\": 0, \"absorbable_fraction\": 0}")
dsml_cli_test(cli_ps_round_speeds_other_model ${error_exit} ARGS ps --regime bsp --workers 4 --iterations 3
  --speed exponential --round-speeds 1,3 --alpha 0 --beta 1e-9
  STDERR "^dsml: error: a list of per-round speeds is for the per-round model, but the model is exponential: choose per-round, or give fixed per-worker speeds as multipliers\n$")
dsml_cli_test(cli_ps_per_round_no_list ${error_exit} ARGS ps --regime bsp --workers 4 --iterations 3
  --speed per-round --alpha 0 --beta 1e-9
  STDERR "^dsml: error: the per-round model needs a list of speeds to draw from \\(1 to 1024 values, e\\.g\\. 1,1,1,1,3,5\\), got 0\n$")
