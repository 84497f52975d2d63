## LCP backend, Stewart-Trinkle / Anitescu-Potra: the velocity-level LCP with a polyhedral
## friction cone (lcp_problem.c), solved by projected Gauss-Seidel by contact blocks
## (lcp_pgs.c) or by Lemke's method on the dense LCP (lcp_lemke.c, lemke.c); the step
## (lcp_step.c) reuses the DVI backend's rows and stabilization (dvi/ccp.c).
libcontactlab_la_SOURCES += \
	lcp/lemke.c \
	lcp/lcp_problem.c \
	lcp/lcp_pgs.c \
	lcp/lcp_lemke.c \
	lcp/lcp_step.c \
	lcp/lcp_backend.c

noinst_HEADERS += \
	lcp/lemke.h \
	lcp/lcp_internal.h
