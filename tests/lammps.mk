## the LAMMPS data-file importer (lib/lammps_data.c)
clab_tests += tests/test_lammps_data
tests_test_lammps_data_LDADD = $(CLAB_LDADD)
