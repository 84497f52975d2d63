## contactlab validate in its quick form: the Chung-Ooi tests and the single-contact checks
## pass under penalty, dvi, dvi-exact; a law short of Coulomb fails; bad tests refused (TAP, sh)
TESTS += tests/test_validate_cli.sh
EXTRA_DIST += tests/test_validate_cli.sh
