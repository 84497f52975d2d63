## DVI (cone complementarity) backend
