// fabc: the fabric compiler. The command line only; the driver has the logic.
#include "driver/Driver.h"

int main(int argc, char **argv) { return fabc::driverMain(argc, argv); }
