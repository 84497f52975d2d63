## experiment drivers
