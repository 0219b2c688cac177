// cairo (Debian's libcairo2-dev): the 2D drawing library `tensorio detect --draw` draws boxes, labels and
// keypoints with. Only the tool links it; the TensorIO library does not.
#include <cairo.h>
