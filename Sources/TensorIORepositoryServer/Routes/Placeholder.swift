import Hummingbird
import GRDB
import ZIPFoundation
import Crypto
enum ServerPlaceholder {}
