function main takes nothing returns nothing
endfunction
