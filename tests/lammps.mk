## the LAMMPS data-file importer (lib/lammps_data.c)
clab_tests += tests/test_lammps_data
tests_test_lammps_data_LDADD = $(CLAB_LDADD)

## the penalty options that run LAMMPS gran/hooke/history's law exactly (cap, lever, history_start)
clab_tests += tests/test_penalty_lammps
tests_test_penalty_lammps_LDADD = $(CLAB_LDADD)
