## tests of the collision layer (lib/grid.c .. lib/collide.c, collide_internal.h draws the flow)
clab_tests += tests/test_collide
tests_test_collide_LDADD = $(CLAB_LDADD)
clab_tests += tests/test_broadphase
tests_test_broadphase_LDADD = $(CLAB_LDADD)
clab_tests += tests/test_sphere_list
tests_test_sphere_list_LDADD = $(CLAB_LDADD)
## the contact levers: derived for two spheres, stored in the side array otherwise (clab_contact.h)
clab_tests += tests/test_lever
tests_test_lever_LDADD = $(CLAB_LDADD)
## the cuts of the parallel loops by the threads' times (lib/clab_balance.h)
clab_tests += tests/test_balance
tests_test_balance_LDADD = $(CLAB_LDADD)
## triangle-mesh walls: STL reader, sphere-triangle features, both backends, scene meshes
clab_tests += tests/test_mesh
tests_test_mesh_LDADD = $(CLAB_LDADD)
## the sphere cell list with triangle-mesh walls against the general path
clab_tests += tests/test_mesh_list
tests_test_mesh_list_LDADD = $(CLAB_LDADD)
