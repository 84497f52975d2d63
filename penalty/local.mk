## penalty (DEM) backend
