import re,sys
t=open(sys.argv[1]).read()
w=l=0
for g in t.split('[Event')[1:]:
    white=re.search(r'\[White "([^"]+)"',g).group(1); m=re.search(r'\[Result "([^"]+)"',g)
    if not m: continue
    res=m.group(1)
    if res not in('1-0','0-1'): continue
    win=(res=='1-0')==(white=='new')
    w+=win; l+=not win
print(w,l)
