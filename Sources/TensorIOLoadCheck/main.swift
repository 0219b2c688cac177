// tensorio-load-check: loads one bundle's model in a process of its own, for an isolated load check
// (`ModelBundle.checkLoading(.isolated)`). See LoadCheckChild in the TensorIO library.
import Foundation
import TensorIO

exit(LoadCheckChild.main(arguments: CommandLine.arguments))
