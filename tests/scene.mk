## tests of scenes and output (lib/scene.c, lib/csv.c, lib/vtk.c)
clab_tests += tests/test_scene tests/test_csv tests/test_vtk
tests_test_scene_LDADD = $(CLAB_LDADD)
tests_test_scene_CPPFLAGS = $(AM_CPPFLAGS) -DCLAB_TOP_SRCDIR='"$(abs_top_srcdir)"'
tests_test_csv_LDADD = $(CLAB_LDADD)
tests_test_vtk_LDADD = $(CLAB_LDADD)

## the scene files the tests read, and the example scenes (test_scene loads them too)
EXTRA_DIST += \
	tests/scenes/valid_full.cfg \
	tests/scenes/valid_minimal.cfg \
	tests/scenes/bad_syntax.cfg \
	tests/scenes/bad_type.cfg \
	tests/scenes/bad_nu.cfg \
	tests/scenes/bad_cor.cfg \
	tests/scenes/bad_mu.cfg \
	tests/scenes/bad_radius.cfg \
	tests/scenes/bad_h.cfg \
	tests/scenes/bad_nonfinite.cfg \
	tests/scenes/bad_unknown_key.cfg \
	tests/scenes/bad_duplicate.cfg \
	tests/scenes/bad_missing.cfg \
	tests/scenes/bad_reference.cfg \
	tests/scenes/bad_integer.cfg \
	tests/scenes/bad_include.cfg \
	tests/scenes/bad_vector.cfg \
	tests/scenes/bad_array_types.cfg \
	tests/scenes/bad_plane.cfg \
	tests/scenes/multi_error.cfg \
	experiments/scenes/bowling_ball.cfg \
	experiments/scenes/box_incline.cfg \
	experiments/scenes/sphere_pile.cfg \
	experiments/scenes/pendulum.cfg
