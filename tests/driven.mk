## driven bodies, applied loads, servo walls and the force on a body (lib/motion.c, servo.c,
## body_force.c): test_driven (belt, table, load, resting force), test_servo, test_driven_io
## (scene blocks, their errors, checkpoints)
clab_tests += tests/test_driven
tests_test_driven_LDADD = $(CLAB_LDADD)
clab_tests += tests/test_driven_io
tests_test_driven_io_LDADD = $(CLAB_LDADD)
